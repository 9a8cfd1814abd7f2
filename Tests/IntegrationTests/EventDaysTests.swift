import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// ledger.event_days, the per-day counts the console's overview charts: kept by the append's
/// trigger, and filled once by the migration for a ledger that had events before it.
@Suite("Events per day, kept at append")
struct EventDaysTests {
    /// The rows of ledger.event_days that differ from a count of ledger.events by log and UTC day
    /// of recorded_at, in either direction.
    static let disagreement: PostgresQuery = """
        SELECT count(*) FROM (
          (SELECT log_id, day, events FROM ledger.event_days
           EXCEPT
           SELECT log_id, (recorded_at AT TIME ZONE 'UTC')::date, count(*) FROM ledger.events GROUP BY 1, 2)
          UNION ALL
          (SELECT log_id, (recorded_at AT TIME ZONE 'UTC')::date, count(*) FROM ledger.events GROUP BY 1, 2
           EXCEPT
           SELECT log_id, day, events FROM ledger.event_days)) d
        """

    @Test("every append, single or batched, to any log, is counted on its day")
    func countedAtAppend() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(5))
            for _ in 0..<3 { _ = try await store.append(log: "acme", events: [try Fixtures.event()]) }
            let batch = try Fixtures.events(4)
            _ = try await store.append(log: "globex", events: batch, idempotencyKey: "g-1")
            _ = try await store.append(log: "globex", events: batch, idempotencyKey: "g-1")  // a replay stores nothing
            #expect(try await client.int("SELECT sum(events)::bigint FROM ledger.event_days WHERE log_id = 'acme'") == 8)
            #expect(try await client.int("SELECT sum(events)::bigint FROM ledger.event_days WHERE log_id = 'globex'") == 4)
            #expect(try await client.int(Self.disagreement) == 0)
        }
    }

    @Test("a refused batch counts nothing")
    func refusedBatchCountsNothing() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(2))
            await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [try Fixtures.event(stream: "subject-p_1", expected: .noStream)])
            }
            #expect(try await client.int("SELECT sum(events)::bigint FROM ledger.event_days") == 2)
        }
    }

    @Test("a ledger migrated with events and no counts gets them counted, once")
    func filledByMigration() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(6))
            _ = try await EventStore(pool: client).append(log: "globex", events: try Fixtures.events(2))
        }
        try await db.as(.administrator) { client async throws in
            // As before schema 17: the table empty while the log holds events.
            try await client.query("DELETE FROM ledger.event_days")
            _ = try await Migrator(pool: client).migrate()
            #expect(try await client.int("SELECT sum(events)::bigint FROM ledger.event_days") == 8)
            #expect(try await client.int(Self.disagreement) == 0)
            _ = try await Migrator(pool: client).migrate()
            #expect(try await client.int("SELECT sum(events)::bigint FROM ledger.event_days") == 8)
        }
    }
}
