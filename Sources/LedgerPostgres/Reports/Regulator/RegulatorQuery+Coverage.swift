import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// Of the installs active in the period (a subject and an app with an event of the jurisdiction
    /// in it), how many had an age range requested at download, at launch, and, for those with no
    /// request at download (existing users to back-fill), any request by the period's end; titled by
    /// the laws that govern the scope (``RegulatorLaws/coverage``: Texas SB 2420 for US-TX). The installs
    /// are staged first (`installs.sql`); `backfill` is the period's back-fill requests (``RegulatorCounts``).
    func coverage(backfillRequests backfill: Int64, on connection: PostgresConnection) async throws -> JSONValue {
        _ = try await runOverWholeDays(ReportSQL.Regulator.installs, on: connection)
        try await connection.watchedQuery("ANALYZE regulator_installs", logger: logger)
        let rows = try await run(ReportSQL.Regulator.coverage, on: connection)
        for try await (installs, download, launch, existing, withSignal)
            in rows.decode((Int64, Int64, Int64, Int64, Int64).self) {
            var section = RegulatorLaws.coverage(scope: scope.code, from: parameters.from, to: parameters.to)
            section.merge(["installs": Self.number(installs), "requestedAtDownload": Self.number(download),
                    "requestedAtLaunch": Self.number(launch), "shareAtDownload": Self.share(download, of: installs),
                    "shareAtLaunch": Self.share(launch, of: installs),
                    "backfill": ["existingInstalls": Self.number(existing), "withAgeSignal": Self.number(withSignal),
                                 "share": Self.share(withSignal, of: existing), "backfillRequests": Self.number(backfill)]]) { $1 }
            return .object(section)
        }
        throw LedgerError(.databaseError, "the coverage query returned no row")
    }

    /// The policy in force, and the RetentionApplied and SubjectErased events of the period in every
    /// jurisdiction (erasure is per subject), read from the log itself; titled by the laws that
    /// govern the scope (``RegulatorLaws/retention``: COPPA 312.10 within the US, none in the EU).
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
        var section = RegulatorLaws.retention(scope: scope.code, from: parameters.from, to: parameters.to)
        section.merge(["policy": ["policyId": .string(policy.retentionPolicyId), "statement": .string(policy.retentionStatement)],
                       "retentionApplied": .array(applied), "erasures": .array(erasures)]) { $1 }
        return .object(section)
    }
}
