import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// Issue 17: a batch stored before one of its subjects was erased, sent again, is a retry and is
/// answered with its original positions, with its own key, the default key, or one event at a
/// time; new personal data about the erased subject is still refused.
@Suite("A retry after an erasure is answered as a replay")
struct RetryAfterErasureTests {
    /// A log holding one batch about p_1 (erased afterwards) and p_2, appended with `key`.
    static func erasedAfterAppend(key: String?) async throws -> (TestDatabase, [EventInput], AppendResult) {
        let db = try await TestDatabase.create()
        let batch = [try PersonalDataTests.event(subject: "p_1", reason: "mother phoned from +44 20 7946 0000"),
                     try PersonalDataTests.event(subject: "p_2", reason: "school asked")]
        let first = try await db.as(.application) { client async throws in
            try await EventStore(pool: client).append(log: "acme", events: batch, idempotencyKey: key)
        }
        try await db.as(.administrator) { client async throws in
            let erasure = try EventInput(line: Array(#"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"subject-p_1","type":"SubjectErased","schemaVersion":1,"occurredAt":"2026-11-23T09:00:00Z","subject":"p_1","actor":{"kind":"operator","id":"op_3"},"payload":{"subjectId":"p_1","reason":"erasureRequest"}}"#.utf8))
            _ = try await EventStore(pool: client).erase(log: "acme", subject: "p_1", erasure: erasure)
        }
        return (db, batch, first)
    }

    @Test("the same batch with the same idempotency key, or with none (the default key), gets its original positions",
          arguments: ["import-1", nil] as [String?])
    func retryIsReplay(key: String?) async throws {
        let (db, batch, first) = try await Self.erasedAfterAppend(key: key)
        try await db.as(.application) { client async throws in
            let again = try await EventStore(pool: client).append(log: "acme", events: batch, idempotencyKey: key)
            #expect(again.idempotentReplay)
            #expect(again.events == first.events)
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 3)
        }
    }

    @Test("one event of the batch sent again alone (as the HTTP API's single appends do) gets its position")
    func singleRetryIsReplay() async throws {
        let (db, batch, first) = try await Self.erasedAfterAppend(key: nil)
        try await db.as(.application) { client async throws in
            let again = try await EventStore(pool: client).appendSingle(log: "acme", event: batch[0])
            #expect(again.idempotentReplay)
            #expect(again.events == [first.events[0]])
        }
    }

    @Test("a new event with personal data about the erased subject is still refused, naming the subject")
    func newPersonalDataRefused() async throws {
        let (db, batch, _) = try await Self.erasedAfterAppend(key: "import-1")
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let fresh = try await #require(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [try PersonalDataTests.event(subject: "p_1", reason: "again")])
            }
            #expect(fresh.code == .subjectErased)
            #expect(fresh.message.contains("p_1"))
            // The stored event's id with something else changed is not a retry either.
            let changed = try PersonalDataTests.event(subject: "p_1", reason: "mother phoned from +44 20 7946 0000",
                                                      id: batch[0].envelope.eventId, decision: "override")
            let different = try await #require(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [changed, batch[1]], idempotencyKey: "import-1")
            }
            #expect(different.code == .subjectErased)
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 3)
        }
    }
}
