import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// `GroupCommit` with two transactions in flight per log (the server uses one; decision 0041):
/// the head lock still orders positions, so they stay gapless, and every request is answered once.
@Suite("Group commit with two transactions in flight")
struct GroupCommitInFlightTests {
    @Test("60 concurrent single appends, half with keys, through two transactions at a time: positions 1 to 60, each once")
    func twoInFlight() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let commit = GroupCommit(store: EventStore(pool: client), maxInFlight: 2)
            let events = try (0..<60).map { index in try Fixtures.event(stream: "subject-p_\(index % 7)") }
            let positions = try await withThrowingTaskGroup(of: Int64.self) { group in
                for (index, event) in events.enumerated() {
                    group.addTask {
                        let key = index.isMultiple(of: 2) ? "request-\(index)" : nil
                        let result = try await commit.append(log: "acme", event: event, idempotencyKey: key)
                        #expect(!result.idempotentReplay)
                        return result.events[0].position
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(positions.sorted() == Array(1...60))
            #expect(try await client.int("SELECT count(*) FROM ledger.batches WHERE idempotency_key LIKE 'request-%'") == 30)
            #expect(try await client.int("SELECT count(DISTINCT recorded_at) FROM ledger.events") < 60)
        }
    }
}
