import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// The simulator makes a case of every rule of docs/rules.md, so the demo, the benchmarks and the
/// chunking tests exercise them all: folded into the anomalies projection, a simulated history
/// finds every rule the projection decides, and its regulator reports every violation.
@Suite("Simulated histories break every rule")
struct SimulatedRuleCoverageTests {
    @Test("every rule and anomaly of the catalogue is found in a simulated history of 200 families over 180 days")
    func everyRuleIsFound() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, families: 200, days: 180, seed: 1, batchSize: 2_000)
        let found = try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            var kinds: [String: Int64] = [:]
            let rows = try await client.query("SELECT kind, count(*) FROM anomalies.findings WHERE log_id = 'sim' GROUP BY kind")
            for try await (kind, n) in rows.decode((String, Int64).self) { kinds[kind] = n }
            return kinds
        }
        // A rule with a policy setting is judged by the reports against the policy, not by the projection.
        let decidedByTheProjection = Set(RuleCatalogue.all.filter { $0.policySetting == nil }.map(\.id))
        #expect(Set(found.keys) == decidedByTheProjection,
                "missing: \(decidedByTheProjection.subtracting(found.keys).sorted()); unknown: \(Set(found.keys).subtracting(decidedByTheProjection).sorted())")
        // Breaches stay rare: a simulated app follows the rules almost always.
        #expect(found.values.reduce(0, +) * 20 < Int64(count), "\(found) in \(count) events")

        let from = AsOf.date("2026-09-01T00:00:00Z")!, to = AsOf.date("2027-03-01T00:00:00Z")!
        // A month-old age signal is too old for this policy (age-signal-expired is judged only when a policy sets an interval).
        let policy = try ReportPolicy.parse(Array(#"{"ageSignalRecheckDays": 30}"#.utf8))
        var reported: Set<String> = []
        for jurisdiction in ["US", "GB", "EU", "AU"] {
            let report = try await db.as(.auditor) { client async throws in
                try await RegulatorReport.compute(.init(log: "sim", jurisdiction: jurisdiction, from: from, to: to), policy: policy,
                                                  pool: client).report
            }
            reported.formUnion(report["violations"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? [])
        }
        #expect(reported == Set(RuleCatalogue.violations.map(\.id)),
                "not in any regulator report: \(Set(RuleCatalogue.violations.map(\.id)).subtracting(reported).sorted())")
    }
}
