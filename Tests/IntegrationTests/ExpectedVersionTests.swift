import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Expected versions (optimistic concurrency)")
struct ExpectedVersionTests {
    @Test("noStream, exact and any conditions are enforced, and a refused batch stores nothing")
    func conditions() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: [try Fixtures.event(stream: "s-1", expected: .noStream)])
            _ = try await store.append(log: "acme", events: [try Fixtures.event(stream: "s-1", expected: .exact(1))])

            let again = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [try Fixtures.event(stream: "s-1", expected: .noStream)])
            }
            #expect(again?.code == .wrongExpectedVersion)
            #expect(again?.message.contains("Wrong expected version") == true)

            // A stale version in the middle of a batch: the whole batch is refused, naming event 2.
            let stale = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [
                    try Fixtures.event(stream: "s-2"),
                    try Fixtures.event(stream: "s-1", expected: .exact(1)),
                    try Fixtures.event(stream: "s-3"),
                ])
            }
            #expect(stale?.code == .wrongExpectedVersion)
            #expect(stale?.line == 2)
            #expect(stale?.message.contains("at version 2") == true)
            #expect(try await store.head(log: "acme")?.position == 2)

            // Conditions inside one batch see the versions the batch itself creates.
            let chained = try await store.append(log: "acme", events: [
                try Fixtures.event(stream: "s-1", expected: .exact(2)),
                try Fixtures.event(stream: "s-1", expected: .exact(3)),
                try Fixtures.event(stream: "s-9", expected: .noStream),
            ])
            #expect(chained.events.map(\.streamVersion) == [3, 4, 1])
        }
    }

    @Test("many concurrent writers on one stream: exactly one wins each version")
    func concurrentWriters() async throws {
        let db = try await TestDatabase.create()
        let writers = 8
        let attemptsEach = 15
        let wins = try await db.as(.application) { client async throws in
            try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<writers {
                    group.addTask {
                        let store = EventStore(pool: client)
                        var won: [Int64] = []
                        for _ in 0..<attemptsEach {
                            // Read the stream's version, decide, append on that condition.
                            var current: Int64 = 0
                            try await store.read(log: "acme", stream: "subject-contested") { current = $0.streamVersion }
                            let expected: ExpectedVersion = current == 0 ? .noStream : .exact(current)
                            do {
                                let result = try await store.append(
                                    log: "acme", events: [try Fixtures.event(stream: "subject-contested", expected: expected)])
                                won.append(result.events[0].streamVersion)
                            } catch let error as LedgerError where error.code == .wrongExpectedVersion {
                                continue
                            }
                        }
                        return won
                    }
                }
                var all: [Int64] = []
                for try await won in group { all += won }
                return all
            }
        }
        // Every version was won exactly once, and the versions have no gaps.
        #expect(wins.sorted() == Array(1...Int64(wins.count)))
        #expect(wins.count >= attemptsEach)
        try await db.as(.auditor) { client async throws in
            let stored = try await client.int("SELECT count(*) FROM ledger.events WHERE stream = 'subject-contested'")
            #expect(stored == Int64(wins.count))
        }
    }
}
