import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Personal data: sealed at append, erased by destroying the key")
struct PersonalDataTests {
    static func event(subject: String, reason: String, id: String = UUID().uuidString.lowercased(),
                      decision: String = "annotation") throws -> EventInput {
        let line = #"{"eventId":"\#(id)","stream":"subject-\#(subject)","type":"OperatorDecision","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"\#(subject)","actor":{"kind":"operator","id":"op_3"},"payload":{"affectedSubjectId":"\#(subject)","decision":"\#(decision)","operatorId":"op_3","reason":"\#(reason)"}}"#
        return try EventInput(line: Array(line.utf8))
    }

    @Test("stored sealed, readable with the key, erased for good after erase_subject, and verify still passes")
    func lifecycle() async throws {
        let db = try await TestDatabase.create()
        let batch = [try Self.event(subject: "p_1", reason: "mother phoned from +44 20 7946 0000"),
                     try Self.event(subject: "p_2", reason: "school asked")]
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            // append seals the catalogue's personal fields (OperatorDecision.reason) itself.
            let first = try await store.append(log: "acme", events: batch)
            // A retry seals to the same bytes, so it is recognised as a retry.
            let again = try await store.append(log: "acme", events: batch)
            #expect(again.idempotentReplay && again.events == first.events)
            #expect(await client.sqlState("SELECT * FROM ledger.subject_keys") == "42501")
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE convert_from(record, 'UTF8') LIKE '%7946 0000%'") == 0)
        }
        func reasons() async throws -> [JSONValue?] {
            try await db.as(.administrator) { client async throws in
                let store = EventStore(pool: client)
                let keys = try await store.keyStates(log: "acme")
                var out: [JSONValue?] = []
                try await store.read(log: "acme") { row in
                    let event = try LedgerRecord(parsing: row.record).event
                    let subject = event["subject"]?.stringValue ?? ""
                    out.append(try PersonalDataView.reveal(event: event, log: "acme", key: keys[subject] ?? .unknown)["payload"]?["reason"])
                }
                return out
            }
        }
        #expect(try await reasons() == [.string("mother phoned from +44 20 7946 0000"), .string("school asked")])

        let erasure = try SubjectErasure.event(subject: "p_1", reason: "erasureRequest")
        let erased = try await db.as(.administrator) { client async throws in
            try await client.int("SELECT count(*) FROM ledger.erase_subject('acme', 'p_1', \(erasure.canonicalText))")
        }
        #expect(erased == 1)
        // The third is the SubjectErased the erasure recorded: its reason is a closed list, not personal data.
        #expect(try await reasons() == [PersonalDataCipher.erasedMarker, .string("school asked"), .string("erasureRequest")])

        let report = try await db.as(.auditor) { client async throws in
            try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme")
        }
        #expect(report.passed && report.verifiedCount == 3)

        // No new personal data for an erased subject.
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let error = await #expect(throws: LedgerError.self) {
                _ = try await store.append(log: "acme", events: [try Self.event(subject: "p_1", reason: "again")])
            }
            #expect(error?.code == .subjectErased)
            let other = try SubjectErasure.event(subject: "p_2", reason: "erasureRequest")
            #expect(await client.sqlState("SELECT * FROM ledger.erase_subject('acme', 'p_2', \(other.canonicalText))") == "42501")
        }
    }
}

/// A refused batch stores nothing: not its events, not the keys made to seal it, not its new log.
@Suite("Refused batches leave nothing")
struct RefusedBatchTests {
    @Test("a batch about new subjects in a new log, refused for a wrong expected version, leaves no log, no key and no event",
          arguments: ["wrong-expected-version", "duplicate-event-id"])
    func refusedBatchLeavesNothing(refusal: String) async throws {
        let db = try await TestDatabase.create()
        let repeated = UUID().uuidString.lowercased()
        var batch = [try PersonalDataTests.event(subject: "p_new1", reason: "phoned", id: repeated),
                     try PersonalDataTests.event(subject: "p_new2", reason: "wrote")]
        if refusal == "wrong-expected-version" {
            batch.append(try EventInput(line: Array(Fixtures.line(stream: "subject-p_new1", expected: "7").utf8)))
        } else {
            batch.append(try PersonalDataTests.event(subject: "p_new3", reason: "again", id: repeated))
        }
        _ = try await db.as(.application) { pool async throws in
            await #expect { try await EventStore(pool: pool).append(log: "fresh", events: batch) } throws: { error in
                (error as? LedgerError)?.code.rawValue == refusal
            }
        }
        try await db.as(.administrator) { pool async throws in
            #expect(try await pool.int("SELECT count(*) FROM ledger.logs WHERE log_id = 'fresh'") == 0)
            #expect(try await pool.int("SELECT count(*) FROM ledger.subject_keys WHERE log_id = 'fresh'") == 0)
            #expect(try await pool.int("SELECT count(*) FROM ledger.events WHERE log_id = 'fresh'") == 0)
        }
    }

    @Test("personal data appended to an invalid log id is refused as invalid-log-id, before any key is made")
    func invalidLogIdWhileSealing() async throws {
        let db = try await TestDatabase.create()
        _ = try await db.as(.application) { pool async throws in
            await #expect { try await EventStore(pool: pool).append(log: "Not A Log", events: [try PersonalDataTests.event(subject: "p_1", reason: "x")]) }
                throws: { error in (error as? LedgerError)?.code == .invalidLogId }
        }
        try await db.as(.administrator) { pool async throws in
            #expect(try await pool.int("SELECT count(*) FROM ledger.subject_keys") == 0)
        }
    }
}
