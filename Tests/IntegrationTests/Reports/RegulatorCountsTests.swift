import Foundation
import LedgerCore
@testable import LedgerPostgres
import LedgerReportModel
import Logging
import PostgresNIO
import Testing

/// The regulator report reads its counts from `report_facts.period_counts` (whole days, blocks of
/// 10,000 positions) and `facts` (the rest), and its installs from `install_days` (whole days) and
/// `facts` (the hours at either end): the same as counting `facts` row by row, whatever the period
/// (whole days, hours, within one day) and the position (on, before and after a block's end).
/// The other report tests use logs of a few hundred events, all within the first block; this one
/// is long enough (23,786 events) for finished blocks.
@Suite("Regulator report: counts from period_counts and install_days")
struct RegulatorCountsTests {
    static let log = "counted"
    static let start = AsOf.date("2026-09-01T00:00:00Z")!

    @Test("period-counts.sql and installs.sql equal a row-by-row count of facts, for periods cut anywhere and positions around blocks")
    func countsEqualRowByRow() async throws {
        let db = try await TestDatabase.create()
        let events = try await ProjectionTestSupport.appendSimulated(db, log: Self.log, families: 600, days: 60, seed: 19, batchSize: 1_000)
        #expect(events > 20_001)
        try await ReportSourceTests.catchUp(db)
        let day = 86_400.0
        let periods: [(String, Date, Date)] = [
            ("whole days", Self.start.addingTimeInterval(5 * day), Self.start.addingTimeInterval(40 * day)),
            ("cut within days", Self.start.addingTimeInterval(5 * day + 26_000), Self.start.addingTimeInterval(40 * day + 3_601)),
            ("within one day", Self.start.addingTimeInterval(20 * day + 3_600), Self.start.addingTimeInterval(20 * day + 50_000)),
            ("across midnight", Self.start.addingTimeInterval(30 * day - 7_200), Self.start.addingTimeInterval(31 * day + 7_200)),
            ("the whole log and more", Self.start.addingTimeInterval(-10 * day), Self.start.addingTimeInterval(400 * day)),
        ]
        let head = Int64(events)
        let positions: [Int64] = [1, 9_999, 10_000, 10_001, 15_432, 19_999, 20_000, 20_001, head - 1, head]
        let scopes = try ["US", "US-TX", "GB", "EU"].map { code throws(LedgerError) in try JurisdictionCatalogue.standard.scope(of: code) }
        var finishedBlocks = 0
        try await db.as(.auditor) { client async throws in
            try await client.rolledBackTransaction { connection in
                try await connection.query("SET LOCAL search_path TO report_facts, anomalies, ledger, public", logger: Logger(label: "test"))
                for (name, from, to) in periods {
                    for position in positions {
                        for scope in scopes {
                            let parameters = RegulatorReport.Parameters(log: Self.log, jurisdiction: scope.code, from: from, to: to)
                            let query = RegulatorQuery(parameters: parameters, scope: scope, position: position, policy: .defaults,
                                                       logger: Logger(label: "test"))
                            let counts = try await RegulatorCounts.read(query, on: connection).rows.map(Self.line).sorted()
                            let expected = try await Self.rowByRow(query, on: connection)
                            #expect(counts == expected, "\(name), position \(position), \(scope.code)")
                            _ = try await query.runOverWholeDays(ReportSQL.Regulator.installs, on: connection)
                            let installs = try await Self.strings("SELECT subject || ' ' || bundle_id FROM regulator_installs", on: connection)
                            let expectedInstalls = try await Self.strings("""
                                SELECT DISTINCT subject || ' ' || bundle_id FROM facts
                                 WHERE log_id = $1 AND position <= $2 AND occurred_at >= $3 AND occurred_at < $4
                                   AND jurisdiction = ANY($5::text[]) AND subject IS NOT NULL AND bundle_id IS NOT NULL
                                """, query.binds, on: connection)
                            #expect(installs == expectedInstalls, "\(name), position \(position), \(scope.code)")
                            try await connection.query("DROP TABLE regulator_installs", logger: Logger(label: "test"))
                        }
                    }
                }
                var binds = PostgresBindings()
                binds.append(Self.log)
                let blocks = try await Self.strings("SELECT count(DISTINCT block)::text FROM period_counts WHERE log_id = $1", binds, on: connection)
                finishedBlocks = Int(blocks.first ?? "0") ?? 0
            }
        }
        // The log spans finished blocks (so the sums above were read from them) and a partial one.
        #expect(finishedBlocks >= 3)
    }

    /// A count row as a comparable line.
    static func line(_ row: RegulatorCounts.Row) -> String {
        [row.jurisdiction, row.environment, row.type, row.trigger, row.category, row.declaration, row.playStatus, row.error,
         row.checkMethod, row.outcome, "\(row.events)", "\(row.firstPosition)"].map { $0 ?? "-" }.joined(separator: "|")
    }

    /// The same counts from facts, row by row.
    static func rowByRow(_ query: RegulatorQuery, on connection: PostgresConnection) async throws -> [String] {
        var binds = PostgresBindings()
        binds.append(query.parameters.log)
        binds.append(query.position)
        binds.append(query.parameters.from)
        binds.append(query.parameters.to)
        return try await strings("""
            SELECT concat_ws('|', coalesce(jurisdiction, '-'), coalesce(environment, '-'), type, coalesce(trigger, '-'),
                   coalesce(category, '-'), coalesce(declaration, '-'), coalesce(play_status, '-'), coalesce(error, '-'),
                   coalesce(check_method, '-'), coalesce(outcome, '-'), count(*), min(position))
              FROM facts WHERE log_id = $1 AND position <= $2 AND occurred_at >= $3 AND occurred_at < $4
             GROUP BY jurisdiction, environment, type, trigger, category, declaration, play_status, error, check_method, outcome
            """, binds, on: connection)
    }

    /// The first column of `sql`'s rows, sorted.
    static func strings(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), on connection: PostgresConnection) async throws -> [String] {
        var lines: [String] = []
        for try await (line,) in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: Logger(label: "test")).decode((String,).self) {
            lines.append(line)
        }
        return lines.sorted()
    }
}
