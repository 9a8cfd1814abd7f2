import Foundation
import LedgerCore
@testable import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// The oracle of the move from SQL folds to Swift folds (issue 37, decision 0061): on six
/// simulated histories, every projection table and the reports must come out exactly as the SQL
/// folds made them. `Tests/Fixtures/fold-oracle/seed-N.json` holds, per seed, each projection's row count
/// and the SHA-256 of its sorted row dump (``ProjectionRows``) and the SHA-256 of each report with
/// its run-dependent members taken out; it was recorded from the SQL folds at commit 3507c74 with
/// `FOLD_ORACLE_RECORD=Tests/Fixtures/fold-oracle swift test --filter FoldOracleTests`. Re-record
/// only for a change that means to change the rows, and say so in its commit and here. Recorded
/// again: decision 0062 (withdrawals of consent: the anomalies, report_facts and consent register
/// rows, the regulator reports' rules and rescission figures; nothing else moved) and decision 0063
/// (the laws a regulator report's sections name, with their dates and status), 0064 (a change judged
/// in force without the original version, marked as needing review), 0065 (declines, two new rules)
/// and the simulator's self-declared children (the subject state, report facts and dossier of seeds
/// that have one); issue 38's facts (decision 0066: three new event types the simulator now writes,
/// the subject's app facts, the regulator's new figures, a failed question's topic and time in the
/// register, the age signals' event ids) and rule (decision 0067, signal-disregarded, with the
/// simulator's teens who first overstate their age), the parental controls among the regulator's
/// figures, and decision 0068 (test environments fold into no state): every table and report moved.
@Suite("Projections: every table and report as the SQL folds made them")
struct FoldOracleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fold-oracle")

    @Test("caught up, the projections and the reports of a simulated history match the recorded digests",
          arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func matchesRecordedDigests(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 30, days: 45, seed: seed)
        let digests = try await db.as(.administrator) { client async throws in
            try await Self.digests(log: "sim", client: client)
        }
        let key = "seed-\(seed)"
        if let path = ProcessInfo.processInfo.environment["FOLD_ORACLE_RECORD"] {
            try Self.record(digests, as: key, in: path)
        }
        let recorded = try Self.recorded(key)
        try #require(recorded != nil, "no digests recorded for \(key) in \(Self.folder.path)")
        for (name, digest) in digests.sorted(by: { $0.key < $1.key }) {
            #expect(recorded?[name] == digest, "\(name) (seed \(seed)) differs from the recorded digests")
        }
        #expect(Set(recorded?.keys.map { $0 } ?? []) == Set(digests.keys), "the same tables and reports are digested")
    }

    /// Catches every projection up on `log`, then digests each projection's rows and the reports.
    static func digests(log: String, client: LedgerPool) async throws -> [String: String] {
        _ = try await ProjectionRunner(pool: client).runOnce()
        var digests: [String: String] = [:]
        for projection in ProjectionDefinition.all {
            let rows = try await ProjectionRows.live(projection, pool: client)
            digests[projection.name] = "\(rows.count) " + sha256(rows.map(withoutRecordingTime).joined(separator: "\n"))
        }
        let (from, to) = try await period(log: log, client: client)
        for jurisdiction in ["US-TX", "US-UT", "GB"] {
            let report = try await RegulatorReport.compute(.init(log: log, jurisdiction: jurisdiction, from: from, to: to), pool: client)
            digests["regulator \(jurisdiction)"] = sha256(stable(report.report))
        }
        let register = try await ConsentRegisterReport.compute(.init(log: log), pool: client)
        digests["consent register"] = sha256(String(decoding: try CanonicalJSON.encode(encodable: register.rows), as: UTF8.self))
        let subject = try await client.string(PostgresQuery(unsafeSQL:
            "SELECT min(subject) FROM ledger.events WHERE log_id = '\(log)' AND subject IS NOT NULL"))
        let dossier = try await SubjectDossierReport.compute(log: log, subject: subject, pool: client)
        digests["dossier"] = sha256(CanonicalJSON.encodeString(withoutRecordingTimes(try ReportJSON.value(dossier.steps))))
        return digests
    }

    /// The whole days from the 1st to the 99th percentile of the events' device times (the
    /// simulator's faulty clocks put a few events years away).
    static func period(log: String, client: LedgerPool) async throws -> (Date, Date) {
        let first = try await client.int(PostgresQuery(unsafeSQL:
            "SELECT extract(epoch FROM date_trunc('day', percentile_disc(0.01) WITHIN GROUP (ORDER BY occurred_at)))::bigint FROM ledger.events WHERE log_id = '\(log)'"))
        let last = try await client.int(PostgresQuery(unsafeSQL:
            "SELECT extract(epoch FROM date_trunc('day', percentile_disc(0.99) WITHIN GROUP (ORDER BY occurred_at)) + interval '1 day')::bigint FROM ledger.events WHERE log_id = '\(log)'"))
        return (Date(timeIntervalSince1970: TimeInterval(first)), Date(timeIntervalSince1970: TimeInterval(last)))
    }

    /// The report without what depends on the run rather than on the folds: the ledger's head (its
    /// hash covers the records' recording times), the integrity section, the software, the seal,
    /// the notices (they compare the period with when the test recorded the events).
    static func stable(_ report: JSONValue) -> String {
        guard case .object(var members) = report else { return CanonicalJSON.encodeString(report) }
        for member in ["ledger", "integrity", "software", "notices", ReportSeal.member] { members[member] = nil }
        return CanonicalJSON.encodeString(.object(members))
    }

    /// A row with the one run-dependent fact a fold writes masked: how far ahead of the ledger's
    /// clock a device's clock was (`occurredAt … is 2 years 3 days after the ledger recorded the
    /// event`), which depends on when the test appended the events.
    static func withoutRecordingTime(_ row: String) -> String {
        row.replacing(#/ is [^"]* after the ledger recorded the event/#, with: " is (masked) after the ledger recorded the event")
    }

    /// `value` without the members that hold when the test recorded the events (`recordedAt`) or
    /// hash them (`inclusionProof`, `hash`s of records).
    static func withoutRecordingTimes(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var kept: [String: JSONValue] = [:]
            for (name, member) in members where !["recordedAt", "inclusionProof", "leafHash", "chainHash"].contains(name) {
                kept[name] = withoutRecordingTimes(member)
            }
            return .object(kept)
        case .array(let items): return .array(items.map(withoutRecordingTimes))
        case .string(let text): return .string(withoutRecordingTime(text))
        default: return value
        }
    }

    static func sha256(_ text: String) -> String { LedgerHash.hex(LedgerHash.sha256(Array(text.utf8))) }

    /// The digests recorded for `key`, or nil.
    static func recorded(_ key: String) throws -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(key + ".json").path) else { return nil }
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    /// Writes `digests` as `key`'s file in the folder at `path`.
    static func record(_ digests: [String: String], as key: String, in path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try encoder.encode(digests).write(to: URL(fileURLWithPath: path).appendingPathComponent(key + ".json"))
    }
}
