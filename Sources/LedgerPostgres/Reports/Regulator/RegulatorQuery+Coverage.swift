import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// California AB 1043: of the installs active in the period (a subject and an app with an event
    /// of the jurisdiction in it), how many had an age range requested at download, at launch, and,
    /// for those with no request at download (existing users to back-fill), any request by the
    /// period's end.
    func coverage(on connection: PostgresConnection) async throws -> JSONValue {
        let rows = try await run("""
            WITH installs AS (
                   SELECT DISTINCT subject, bundle_id FROM regulator_period
                    WHERE subject IS NOT NULL AND bundle_id IS NOT NULL),
                 requested AS (
                   SELECT i.subject, i.bundle_id,
                          coalesce(bool_or(r.trigger = 'download'), false) AS at_download,
                          coalesce(bool_or(r.trigger = 'launch'), false) AS at_launch,
                          count(r.position) > 0 AS any_request
                     FROM installs i
                     LEFT JOIN facts r ON r.log_id = $1 AND r.type = 'AgeRangeRequested'
                                      AND r.subject = i.subject AND r.bundle_id = i.bundle_id
                                      AND r.position <= $2 AND r.occurred_at < $4
                    GROUP BY i.subject, i.bundle_id)
            SELECT count(*)::bigint, count(*) FILTER (WHERE at_download)::bigint, count(*) FILTER (WHERE at_launch)::bigint,
                   count(*) FILTER (WHERE NOT at_download)::bigint,
                   count(*) FILTER (WHERE NOT at_download AND any_request)::bigint,
                   (SELECT count(*) FROM regulator_period
                     WHERE type = 'AgeRangeRequested' AND trigger = 'backfill')::bigint
              FROM requested
            """, on: connection)
        for try await (installs, download, launch, existing, withSignal, backfill)
            in rows.decode((Int64, Int64, Int64, Int64, Int64, Int64).self) {
            return ["installs": Self.number(installs), "requestedAtDownload": Self.number(download),
                    "requestedAtLaunch": Self.number(launch), "shareAtDownload": Self.share(download, of: installs),
                    "shareAtLaunch": Self.share(launch, of: installs),
                    "backfill": ["existingInstalls": Self.number(existing), "withAgeSignal": Self.number(withSignal),
                                 "share": Self.share(withSignal, of: existing), "backfillRequests": Self.number(backfill)]]
        }
        throw LedgerError(.databaseError, "the coverage query returned no row")
    }

    /// COPPA 312.10: the policy in force, and the RetentionApplied and SubjectErased events of the
    /// period in every jurisdiction (erasure is per subject), read from the log itself.
    func retention(on connection: PostgresConnection) async throws -> JSONValue {
        var applied: [JSONValue] = [], erasures: [JSONValue] = []
        let rows = try await run("""
            SELECT e.type, e.position, e.event_id::text, \(Self.utc("e.occurred_at")), e.subject,
                   (convert_from(e.record, 'UTF8')::jsonb #> '{event,payload}')::text
              FROM ledger.events e
             WHERE e.log_id = $1 AND e.type IN ('RetentionApplied', 'SubjectErased') AND e.position <= $2
               AND e.occurred_at >= $3 AND e.occurred_at < $4
             ORDER BY e.position
            """, on: connection)
        for try await (type, position, eventId, occurredAt, subject, payloadText)
            in rows.decode((String, Int64, String, String, String?, String).self) {
            let payload = try JSONParser.parse(payloadText)
            var row: [String: JSONValue] = ["occurredAt": .string(occurredAt), "evidencePositions": [Self.number(position)],
                                            "evidenceEventIds": [.string(eventId)]]
            if type == "SubjectErased" {
                row["subject"] = .string(payload["subjectId"]?.stringValue ?? subject ?? "")
                row["reason"] = payload["reason"] ?? .null
                erasures.append(.object(row))
            } else {
                row["policyId"] = payload["policyId"] ?? .null
                row["scope"] = payload["scope"] ?? .null
                row["reason"] = payload["reason"] ?? .null
                row["cutoff"] = payload["cutoff"] ?? .null
                row["subjects"] = .number(Double(payload["subjectIds"]?.arrayValue?.count ?? 0))
                applied.append(.object(row))
            }
        }
        return ["policy": ["policyId": .string(policy.retentionPolicyId), "statement": .string(policy.retentionStatement)],
                "retentionApplied": .array(applied), "erasures": .array(erasures)]
    }
}
