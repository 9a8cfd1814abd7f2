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
        let writersDone = WritersDone()
        let (seen, jumps) = try await db.as(.application) { client async throws in
            try await withThrowingTaskGroup(of: ([Int64], Int).self) { group in
                group.addTask {
                    try await withThrowingTaskGroup(of: Void.self) { writing in
                        for _ in 0..<writers {
                            writing.addTask {
                                let store = EventStore(pool: client)
                                for _ in 0..<batchesEach { _ = try await store.append(log: "acme", events: try Fixtures.events(3)) }
                            }
                        }
                        try await writing.waitForAll()
                    }
                    await writersDone.mark()
                    return ([], 0)
                }
                group.addTask {
                    let store = EventStore(pool: client)
                    var seen: [Int64] = []
                    var jumps = 0
                    var last: Int64 = 0
                    // Poll while the writers write; once they are done, one more read must find the rest.
                    // (No clock: on a loaded machine the writers may take minutes.)
                    while last < total {
                        try Task.checkCancellation()  // a writer failed: the group is being torn down
                        let finished = await writersDone.value
                        try await store.read(log: "acme", after: last) { row in
                            if row.position != last + 1 { jumps += 1 }
                            seen.append(row.position)
                            last = row.position
                        }
                        if finished { break }
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

/// Whether every writer has finished (set once, read by the polling reader).
private actor WritersDone {
    private(set) var value = false
    func mark() { value = true }
}
