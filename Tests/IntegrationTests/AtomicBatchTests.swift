import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Atomic batches")
struct AtomicBatchTests {
    /// Events as canonical text, with one replaced by `bad` at `index`.
    static func bodies(_ count: Int, bad: String, at index: Int) throws -> [String] {
        var bodies = try Fixtures.events(count).map(\.canonicalText)
        bodies[index] = bad
        return bodies
    }

    @Test("one bad event in a batch: nothing of the batch is stored, and the error names it",
          arguments: [
            (#"{"not":"an event"}"#, "not: unknown envelope field"),
            (#"{"eventId":"00000000-0000-4000-8000-000000000009","stream":"s","type":"X","schemaVersion":1,"occurredAt":"2026-02-30T10:00:00Z","actor":{"kind":"app"}}"#, "occurredAt"),
            ("{broken", "not valid JSON"),
            (#"[1,2,3]"#, "not a JSON object"),
          ])
    func oneBadEvent(bad: String, mentions: String) async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(2))
            let bodies = try Self.bodies(50, bad: bad, at: 37)
            do {
                _ = try await client.raw("SELECT * FROM ledger.append_events('acme', \(bodies))")
                Issue.record("the batch was accepted")
            } catch let error as PSQLError {
                #expect(error.serverInfo?[.sqlState] == "CL004")
                #expect(error.serverInfo?[.message]?.contains("event 38") == true)
                #expect(error.serverInfo?[.message]?.contains(mentions) == true)
            }
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 2)
            #expect(try await client.int("SELECT head_position FROM ledger.logs WHERE log_id = 'acme'") == 2)
        }
    }

    @Test("a batch refused by its last event's condition leaves no trace, not even a new log")
    func refusedAtTheEnd() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            var events = try Fixtures.events(20)
            events.append(try Fixtures.event(stream: "subject-p_0", expected: .noStream))
            await #expect(throws: LedgerError.self) { _ = try await store.append(log: "fresh", events: events) }
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
            #expect(try await store.head(log: "fresh") == nil)
        }
    }
}
