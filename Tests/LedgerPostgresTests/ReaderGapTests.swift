import Foundation
import LedgerCore
import LedgerPostgres
import Testing

@Suite("Readers never skip an event")
struct ReaderGapTests {
    @Test("a reader polling position > N while several writers append sees every position, in order, with no gap")
    func pollingReader() async throws {
        let db = try await TestDatabase.create()
        let writers = 4
        let batchesEach = 40
        let total = Int64(writers * batchesEach * 3)
        let (seen, jumps) = try await db.as(.application) { client async throws in
            try await withThrowingTaskGroup(of: ([Int64], Int).self) { group in
                for _ in 0..<writers {
                    group.addTask {
                        let store = EventStore(pool: client)
                        for _ in 0..<batchesEach { _ = try await store.append(log: "acme", events: try Fixtures.events(3)) }
                        return ([], 0)
                    }
                }
                group.addTask {
                    let store = EventStore(pool: client)
                    var seen: [Int64] = []
                    var jumps = 0
                    var last: Int64 = 0
                    let deadline = Date().addingTimeInterval(120)
                    while last < total, Date() < deadline {
                        try await store.read(log: "acme", after: last) { row in
                            if row.position != last + 1 { jumps += 1 }
                            seen.append(row.position)
                            last = row.position
                        }
                    }
                    return (seen, jumps)
                }
                var result: ([Int64], Int) = ([], 0)
                for try await partial in group where !partial.0.isEmpty || partial.1 > 0 { result = partial }
                return result
            }
        }
        #expect(jumps == 0)
        #expect(seen == Array(1...total))
    }
}
