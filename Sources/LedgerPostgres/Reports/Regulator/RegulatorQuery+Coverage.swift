import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// California AB 1043: of the installs active in the period (a subject and an app with an event
    /// of the jurisdiction in it), how many had an age range requested at download, at launch, and,
    /// for those with no request at download (existing users to back-fill), any request by the
    /// period's end.
    func coverage(on connection: PostgresConnection) async throws -> JSONValue {
        let rows = try await run(ReportSQL.Regulator.coverage, on: connection)
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
        let rows = try await run(ReportSQL.Regulator.retention, on: connection)
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
