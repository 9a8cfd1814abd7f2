import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// The bulk path (`EventStore.appendCopying`, decision 0042): the same log as `append_events`
/// would write, the same refusals, the same idempotency, with the trigger as the last word.
@Suite("Bulk append through COPY")
struct BulkAppendTests {
    /// The columns compared between a log written by `append_events` and one written by COPY
    /// (everything but the log id, the ledger's clock and what depends on them).
    static let comparable = """
        SELECT string_agg(concat_ws('|', position, event_id, stream, stream_version, type, schema_version, occurred_at,
                                    subject, actor_kind, actor_id, correlation_id, causation_id,
                                    convert_from(record, 'UTF8')::jsonb->'event'), E'\\n' ORDER BY position)
          FROM ledger.events WHERE log_id = 
        """

    @Test("a bulk batch stores what append_events stores, chained on from the head, and the log verifies")
    func sameAsAppendEvents() async throws {
        let db = try await TestDatabase.create()
        let first = try Fixtures.events(30, streams: 4)
        let second = try Fixtures.events(25, streams: 5)
        try await db.as(.administrator) { owner async throws in
            let store = EventStore(pool: owner)
            _ = try await store.append(log: "rows", events: first)
            _ = try await store.append(log: "rows", events: second)
            _ = try await store.appendCopying(log: "copy", events: first)
            let result = try await store.appendCopying(log: "copy", events: second)
            #expect(result.events.map(\.position) == Array(31...55))
            #expect(!result.idempotentReplay)

            let rows = try await owner.raw(PostgresQuery(unsafeSQL: Self.comparable + "'rows'"))
            let copied = try await owner.raw(PostgresQuery(unsafeSQL: Self.comparable + "'copy'"))
            let rowsText = try rows.first?.decode(String.self)
            #expect(rowsText != nil)
            #expect(rowsText == (try copied.first?.decode(String.self)))

            let report = try await LogVerifier(store: store).verify(log: "copy")
            #expect(report.passed)
            #expect(report.verifiedCount == 55)
            #expect(report.nonCanonicalCount == 0)
        }
    }

    @Test("the same batch again is a replay with the original positions, whichever path stored it first")
    func idempotent() async throws {
        let db = try await TestDatabase.create()
        let batch = try Fixtures.events(12)
        try await db.as(.administrator) { owner async throws in
            let store = EventStore(pool: owner)
            let stored = try await store.appendCopying(log: "acme", events: batch)
            let again = try await store.appendCopying(log: "acme", events: batch)
            #expect(again.idempotentReplay && again.events == stored.events)
            // append_events recognises a batch the bulk path stored, and the other way round.
            let viaFunction = try await store.append(log: "acme", events: batch)
            #expect(viaFunction.idempotentReplay && viaFunction.events == stored.events)
            let other = try Fixtures.events(3)
            let viaFunctionFirst = try await store.append(log: "acme", events: other)
            let thenBulk = try await store.appendCopying(log: "acme", events: other)
            #expect(thenBulk.idempotentReplay && thenBulk.events == viaFunctionFirst.events)
            // The same key with other events is refused.
            let error = await #expect(throws: LedgerError.self) {
                _ = try await store.appendCopying(log: "acme", events: try Fixtures.events(2), idempotencyKey: "k")
                _ = try await store.appendCopying(log: "acme", events: try Fixtures.events(2), idempotencyKey: "k")
            }
            #expect(error?.code == .idempotencyKeyReused)
            #expect(try await owner.int("SELECT count(*) FROM ledger.events") == 17)
        }
    }

    @Test("an event id stored before, or twice in the batch, is refused by name, as append_events words it, and nothing is stored")
    func duplicateEventIds() async throws {
        let db = try await TestDatabase.create()
        let stored = try Fixtures.events(5)
        try await db.as(.administrator) { owner async throws in
            let store = EventStore(pool: owner)
            _ = try await store.appendCopying(log: "acme", events: stored)
            let again = try Fixtures.events(6) + [stored[2]]
            let storedError = await #expect(throws: LedgerError.self) { _ = try await store.appendCopying(log: "acme", events: again) }
            #expect(storedError?.code == .duplicateEventId)
            #expect(storedError?.line == 7)
            #expect(storedError?.message.contains("already stored in log acme at position 3") == true)

            let twice = try Fixtures.events(4)
            let twiceError = await #expect(throws: LedgerError.self) {
                _ = try await store.appendCopying(log: "acme", events: twice + [twice[1]])
            }
            #expect(twiceError?.code == .duplicateEventId)
            // In the words of ledger.raise_duplicate_event_id, as every mode gives them: the first
            // event whose id the batch holds twice.
            #expect(twiceError?.line == 2)
            #expect(twiceError?.message.contains("appears more than once in the batch") == true)
            let viaFunction = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: twice + [twice[1]])
            }
            #expect(viaFunction?.message == twiceError?.message && viaFunction?.line == twiceError?.line)
            #expect(try await owner.int("SELECT count(*) FROM ledger.events") == 5)
            #expect(try await owner.int("SELECT head_position FROM ledger.logs WHERE log_id = 'acme'") == 5)
        }
    }

    @Test("expected versions hold as in append_events: a failed condition refuses the whole batch")
    func expectedVersions() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.administrator) { owner async throws in
            let store = EventStore(pool: owner)
            let fine = [try Fixtures.event(stream: "subject-p_9", expected: .noStream),
                        try Fixtures.event(stream: "subject-p_9", expected: .exact(1)),
                        try Fixtures.event(stream: "subject-p_8", expected: .noStream)]
            let result = try await store.appendCopying(log: "acme", events: fine)
            #expect(result.events.map(\.streamVersion) == [1, 2, 1])

            let late = [try Fixtures.event(stream: "subject-p_7"), try Fixtures.event(stream: "subject-p_9", expected: .exact(1))]
            let error = await #expect(throws: LedgerError.self) { _ = try await store.appendCopying(log: "acme", events: late) }
            #expect(error?.code == .wrongExpectedVersion)
            #expect(error?.line == 2)
            #expect(error?.message.contains("expected stream subject-p_9 to be at version 1, but it is at version 2") == true)
            #expect(try await owner.int("SELECT count(*) FROM ledger.events") == 3)
        }
    }

    @Test("personal data is sealed on the bulk path too, and a new log with an invalid id is refused")
    func sealedAndLogId() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.administrator) { owner async throws in
            let store = EventStore(pool: owner)
            let event = try PersonalDataTests.event(subject: "p_1", reason: "mother phoned from +44 20 7946 0000")
            _ = try await store.appendCopying(log: "acme", events: [event])
            #expect(try await owner.int("SELECT count(*) FROM ledger.events WHERE convert_from(record, 'UTF8') LIKE '%7946 0000%'") == 0)
            #expect(try await owner.int("SELECT count(*) FROM ledger.subject_keys WHERE log_id = 'acme'") == 1)

            let error = await #expect(throws: LedgerError.self) { _ = try await store.appendCopying(log: "Not A Log", events: try Fixtures.events(1)) }
            #expect(error?.code == .invalidLogId)
            #expect(try await owner.int("SELECT count(*) FROM ledger.logs") == 1)
        }
    }

    @Test("the record builder writes the same bytes as the canonical record")
    func recordBytes() throws {
        let event = try Fixtures.event()
        let record = LedgerRecord(event: try JSONParser.parse(event.canonicalBytes), log: "acme.eu-1", position: 123_456_789,
                                  recordedAt: "2026-11-26T21:15:00.000001Z", streamVersion: 42)
        #expect(LedgerRecord.bytes(canonicalEvent: event.canonicalBytes, log: "acme.eu-1", position: 123_456_789,
                                   recordedAt: "2026-11-26T21:15:00.000001Z", streamVersion: 42) == record.canonicalBytes)
    }
}
