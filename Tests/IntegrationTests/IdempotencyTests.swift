import Foundation
import LedgerCore
import LedgerPostgres
import Testing

@Suite("Idempotency")
struct IdempotencyTests {
    @Test("a retried batch returns the original positions and writes nothing")
    func retry() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let batch = try Fixtures.events(5)
            let first = try await store.append(log: "acme", events: batch, idempotencyKey: "import-1")
            _ = try await store.append(log: "acme", events: try Fixtures.events(2))
            let retry = try await store.append(log: "acme", events: batch, idempotencyKey: "import-1")
            #expect(retry.idempotentReplay)
            #expect(retry.events == first.events)
            #expect(try await store.head(log: "acme")?.position == 7)
        }
    }

    @Test("without a key, the same batch sent twice is stored once (the key defaults to its hash)")
    func defaultKey() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let batch = try Fixtures.events(3)
            _ = try await store.append(log: "acme", events: batch)
            let second = try await store.append(log: "acme", events: batch)
            #expect(second.idempotentReplay)
            #expect(try await store.head(log: "acme")?.position == 3)
        }
    }

    @Test("a key reused for a different batch is refused, and an event id is stored once")
    func misuse() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let batch = try Fixtures.events(2)
            _ = try await store.append(log: "acme", events: batch, idempotencyKey: "k")
            let reused = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: try Fixtures.events(2), idempotencyKey: "k")
            }
            #expect(reused?.code == .idempotencyKeyReused)
            let duplicate = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [try Fixtures.event(), batch[1]], idempotencyKey: "other")
            }
            #expect(duplicate?.code == .duplicateEventId)
            #expect(duplicate?.line == 2)
            #expect(duplicate?.message.contains("position 2") == true)
            #expect(try await store.head(log: "acme")?.position == 2)
        }
    }

    @Test("events appended together under one key each are each answered alone on retry; a used key refuses the call")
    func perEventKeys() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let events = try Fixtures.events(3)
            let keys = ["req-a", "req-b", "req-c"]
            let together = try await store.appendKeyedTogether(log: "acme", requests: Array(zip(events, keys)))
            #expect(together.map(\.events[0].position) == [1, 2, 3])
            for (event, (key, first)) in zip(events, zip(keys, together)) {
                let retry = try await store.append(log: "acme", events: [event], idempotencyKey: key)
                #expect(retry.idempotentReplay)
                #expect(retry.events == first.events)
            }
            let reused = await #expect(throws: LedgerError.self) {
                _ = try await store.appendKeyedTogether(log: "acme", requests: [(try Fixtures.event(), "req-new"), (events[1], "req-b")])
            }
            #expect(reused?.code == .idempotencyKeyReused)
            #expect(reused?.message.contains("event 2 of the batch") == true)
            #expect(try await store.head(log: "acme")?.position == 3)
            #expect(try await client.int("SELECT count(*) FROM ledger.batches WHERE idempotency_key = 'req-new'") == 0)
        }
    }
}
