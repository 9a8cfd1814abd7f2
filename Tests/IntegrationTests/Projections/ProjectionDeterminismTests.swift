import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Projections: catch-up, rebuild and time travel agree")
struct ProjectionDeterminismTests {
    @Test("catch-up in many small random chunks, a full rebuild and time travel to the head give the same rows",
          arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func allPathsAgree(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, seed: seed)
        try await db.as(.administrator) { client async throws in
            var random = SeededGenerator(seed: seed)
            let runner = ProjectionRunner(pool: client)
            var chunkedRows: [String: [String]] = [:]
            for projection in ProjectionDefinition.all {
                try await ProjectionTestSupport.installEmpty(projection, client: client)
                var steps = 0
                while case .folded = try await runner.step(projection, log: "sim", chunkSize: Int64.random(in: 1...50, using: &random)) {
                    steps += 1
                }
                #expect(steps > 10, "the log should take many chunks")
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "sim", client: client) == Int64(count))
                let chunked = try await ProjectionRows.live(projection, pool: client)
                #expect(chunked.count > 10, "\(projection.name) should hold rows")

                _ = try await ProjectionRebuilder(pool: client, chunkSize: 997).rebuild(projection)
                let rebuilt = try await ProjectionRows.live(projection, pool: client)
                let travelled = try await TimeTravel(pool: client).rows(log: "sim", projection: projection, asOf: .head)
                expectSameRows(chunked, rebuilt, "\(projection.name): chunked catch-up vs rebuild (seed \(seed))")
                expectSameRows(chunked, travelled, "\(projection.name): chunked catch-up vs time travel to the head (seed \(seed))")
                chunkedRows[projection.name] = chunked
            }
            // All five rebuilt in one pass (each range staged once for all of them), in odd-sized steps.
            _ = try await ProjectionRebuilder(pool: client, chunkSize: 313).rebuild(ProjectionDefinition.all)
            for projection in ProjectionDefinition.all {
                expectSameRows(try await ProjectionRows.live(projection, pool: client), chunkedRows[projection.name] ?? [],
                               "\(projection.name): rebuilt together vs chunked catch-up (seed \(seed))")
                let folded = try await client.int(PostgresQuery(unsafeSQL: "SELECT events_folded FROM \(projection.name).checkpoints"))
                let expected = try await client.int(PostgresQuery(unsafeSQL:
                    "SELECT count(*) FROM ledger.events WHERE type = ANY (ARRAY['\(projection.reads.joined(separator: "','"))'])"))
                #expect(folded == expected, "\(projection.name): events folded when rebuilt together")
            }
        }
    }

    @Test("time travel to a position gives the rows a runner had when it stood at that position", arguments: [UInt64(7), 8])
    func timeTravelMatchesCatchUpToPosition(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, seed: seed)
        try await db.as(.administrator) { client async throws in
            var random = SeededGenerator(seed: seed)
            let runner = ProjectionRunner(pool: client)
            let target = Int64(count / 2) + Int64.random(in: 0...50, using: &random)
            for projection in ProjectionDefinition.all {
                try await ProjectionTestSupport.installEmpty(projection, client: client)
                var position: Int64 = 0
                while position < target {
                    let step = try await runner.step(projection, log: "sim",
                                                     chunkSize: min(target - position, Int64.random(in: 1...300, using: &random)))
                    guard case .folded(_, let through, _) = step else { break }
                    position = through
                }
                #expect(position == target)
                let caughtUp = try await ProjectionRows.live(projection, pool: client)
                let travelled = try await TimeTravel(pool: client).rows(log: "sim", projection: projection, asOf: .position(target))
                expectSameRows(caughtUp, travelled, "\(projection.name) at position \(target) (seed \(seed))")
            }
        }
    }

    @Test("time travel by recorded-at gives the same rows as by the position recorded by then")
    func recordedAtMatchesPosition() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 10, days: 10, seed: 9, batchSize: 50)
        try await db.as(.administrator) { client async throws in
            // The recorded-at of a position in the middle: every event at or before it was recorded by then.
            let rows = try await client.query("SELECT position, recorded_at FROM ledger.events WHERE log_id = 'sim' ORDER BY position")
            var all: [(Int64, Date)] = []
            for try await row in rows.decode((Int64, Date).self) { all.append(row) }
            let (position, recorded) = all[all.count / 2]
            let lastByTime = all.last { $0.1 <= recorded }!.0
            #expect(lastByTime >= position)
            let travel = TimeTravel(pool: client)
            for projection in ProjectionDefinition.all {
                let byTime = try await travel.rows(log: "sim", projection: projection, asOf: .recordedAt(recorded))
                let byPosition = try await travel.rows(log: "sim", projection: projection, asOf: .position(lastByTime))
                #expect(!byTime.isEmpty)
                expectSameRows(byTime, byPosition, "\(projection.name): recorded-at vs position")
            }
        }
    }
}
