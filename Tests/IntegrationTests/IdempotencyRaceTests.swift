@testable import LedgerPostgres
import Foundation
import LedgerCore
import Logging
import PostgresNIO
import Testing

/// `ledger.append_events` checks a batch before it waits for the log's head, and looks its
/// idempotency key up twice: before the checks (a retry of a committed batch is answered at once)
/// and again once it holds the head (decision 0040). These tests hold the head in one transaction
/// while another call waits for it, so the second lookup is what answers.
@Suite("Idempotency while the head is held")
struct IdempotencyRaceTests {
    @Test("a retry that waited behind its uncommitted original is answered as a replay, and stored once")
    func retryBehindOriginal() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(1))
            let batch = try Fixtures.events(3)
            let (first, retried) = try await Self.whileHeld(db, client: client, log: "acme", batch: batch) {
                try await store.append(log: "acme", events: batch, idempotencyKey: "k-race")
            }
            #expect(first.events.count == 3 && !first.idempotentReplay)
            #expect(try retried.get().idempotentReplay)
            #expect(try retried.get().events == first.events)
            #expect(try await store.head(log: "acme")?.position == 4)
        }
    }

    @Test("the same key with other events, waiting behind the original, is refused with CL002")
    func otherEventsBehindOriginal() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let batch = try Fixtures.events(2)
            let other = try Fixtures.events(2)
            let (_, retried) = try await Self.whileHeld(db, client: client, log: "acme", batch: batch) {
                try await store.append(log: "acme", events: other, idempotencyKey: "k-race")
            }
            let refusal = #expect(throws: LedgerError.self) { _ = try retried.get() }
            #expect(refusal?.code == .idempotencyKeyReused)
            #expect(try await store.head(log: "acme")?.position == 2)
        }
    }

    /// Appends `batch` under the key `k-race` in a transaction that stays open until `contender`
    /// is seen waiting for a lock in the database, then commits; returns both answers.
    static func whileHeld(_ db: TestDatabase, client: LedgerPool, log: String, batch: [EventInput],
                          contender: @escaping @Sendable () async throws -> AppendResult) async throws
        -> (AppendResult, Result<AppendResult, any Error>) {
        let logger = Logger(label: "idempotency-race-test")
        let (first, waiting) = try await client.transaction { connection in
            let function = try await client.appendFunctions.function(on: connection, logger: logger)
            let first = try await EventStore.append(log: log, events: batch, idempotencyKey: "k-race", as: .batch, function: function, on: connection, logger: logger)
            let waiting = Task { () -> Result<AppendResult, any Error> in
                do { return .success(try await contender()) } catch { return .failure(error) }
            }
            var seen = false
            for _ in 0..<200 where !seen {
                let waiters = try await db.as(.administrator) { admin in
                    try await admin.int("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND (query LIKE '%append_events%' OR query LIKE '%append_checked_events%')")
                }
                seen = waiters > 0
                if !seen { try await Task.sleep(for: .milliseconds(25)) }
            }
            try #require(seen, "the second append never waited for the head")
            return (first, waiting)
        }
        return (first, await waiting.value)
    }
}
