import Foundation
import LedgerCore
import LedgerPostgres
import Testing
import LedgerSimulation

@Suite("Simulated histories")
struct SimulatedHistoryTests {
    @Test("a simulated history appends cleanly in batches, every event is stored, and the log verifies", arguments: [UInt64(3), 11])
    func appendsCleanly(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        let lines = Array(try HistorySimulator(families: 30, days: 45, seed: seed).lines())
        #expect(lines.count > 500)
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            var batch: [EventInput] = []
            for line in lines {
                batch.append(try EventInput(line: Array(line.utf8)))
                if batch.count == 250 { _ = try await store.append(log: "sim", events: batch); batch.removeAll() }
            }
            if !batch.isEmpty { _ = try await store.append(log: "sim", events: batch) }
            #expect(try await store.head(log: "sim")?.position == Int64(lines.count))
            let report = try await LogVerifier(store: store).verify(log: "sim")
            #expect(report.passed)
            #expect(report.nonCanonicalCount == 0)
        }
    }
}
