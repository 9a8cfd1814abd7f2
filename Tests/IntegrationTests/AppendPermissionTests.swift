import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// Issue 36, finding 4: who may append each event type (decision 0056), in the database, for every
/// caller with the application role (psql included): the ledger's own facts only through their
/// operations, run as the owner.
@Suite("Who may append each type, in the database")
struct AppendPermissionTests {
    static func line(_ type: String, subject: String? = "p_1", stream: String = "subject-p_1", occurredAt: String = "2026-11-23T09:00:00Z",
                     actor: String, payload: String) -> String {
        let subjectMember = subject.map { #""subject":"\#($0)","# } ?? ""
        return #"{"actor":{"kind":"\#(actor)"},"eventId":"\#(UUID().uuidString.lowercased())","occurredAt":"\#(occurredAt)","payload":\#(payload),"schemaVersion":1,"stream":"\#(stream)",\#(subjectMember)"type":"\#(type)"}"#
    }

    static let subjectErased = line("SubjectErased", actor: "ledger", payload: #"{"reason":"erasureRequest","subjectId":"p_1"}"#)
    /// Backdated by a year, as finding 4 found it stored.
    static let retentionApplied = line("RetentionApplied", subject: nil, stream: "retention", occurredAt: "2025-11-01T00:00:00Z",
                                       actor: "ledger", payload: #"{"policyId":"retention-2026-01","reason":"retentionPeriodElapsed","scope":"subjectKeys","subjectIds":["p_1"]}"#)
    /// The ledger's own actor on an app's event.
    static let sharedAsLedger = line("AgeRangeShared", actor: "ledger",
                                     payload: #"{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15}"#)

    /// A log whose subject p_1 has a key (an OperatorDecision with a sealed reason).
    static func logWithKey() async throws -> TestDatabase {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: [try PersonalDataTests.event(subject: "p_1", reason: "phoned")])
        }
        return db
    }

    static func keyIsIntact(_ db: TestDatabase) async throws -> Bool {
        try await db.as(.administrator) { client async throws in
            try await client.int("SELECT count(*) FROM ledger.subject_keys WHERE log_id = 'acme' AND subject = 'p_1' AND key IS NOT NULL") == 1
        }
    }

    @Test("the application role's append_events refuses SubjectErased, a backdated RetentionApplied and the ledger as actor (CL010); nothing is stored, the key stays",
          arguments: [subjectErased, retentionApplied, sharedAsLedger])
    func applicationRoleRefused(event: String) async throws {
        let db = try await Self.logWithKey()
        try await db.as(.application) { client async throws in
            #expect(await client.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(event)])") == "CL010")
            // Through the store, as the HTTP API and the CLI call it: the code and a message that says what to do.
            let error = await #expect(throws: LedgerError.self) {
                _ = try await EventStore(pool: client).append(log: "acme", events: [try EventInput(line: Array(event.utf8))])
            }
            #expect(error?.code == .appendNotPermitted)
            #expect(error?.line == 1)
            if event.contains("SubjectErased") { #expect(error?.message.contains("use `consent-ledger erase`") == true, "\(String(describing: error))") }
            if event.contains("RetentionApplied") { #expect(error?.message.contains("use `consent-ledger retention`") == true, "\(String(describing: error))") }
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 1)
        }
        #expect(try await Self.keyIsIntact(db))
    }

    @Test("a batch with one such event among others stores none of them")
    func wholeBatchRefused() async throws {
        let db = try await Self.logWithKey()
        try await db.as(.application) { client async throws in
            let ordinary = Self.line("AgeRangeShared", actor: "app", payload: #"{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15}"#)
            #expect(await client.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(ordinary), \(Self.subjectErased)])") == "CL010")
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 1)
        }
    }

    @Test("not even the owner stores the ledger's own facts through append_events; the application role may not run the operations")
    func onlyThroughTheOperations() async throws {
        let db = try await Self.logWithKey()
        try await db.as(.administrator) { client async throws in
            #expect(await client.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(Self.subjectErased)])") == "CL010")
        }
        try await db.as(.application) { client async throws in
            let event = Self.subjectErased, retention = Self.retentionApplied
            #expect(await client.sqlState("SELECT * FROM ledger.erase_subject('acme', 'p_1', \(event))") == "42501")
            #expect(await client.sqlState("SELECT * FROM ledger.apply_retention('acme', \(retention))") == "42501")
            #expect(await client.sqlState(
                "SELECT * FROM ledger.append_events_through('ledger.erase_subject', 'acme', ARRAY[\(event)], NULL, NULL, NULL)") == "42501")
        }
        #expect(try await Self.keyIsIntact(db))
    }

    @Test("the erasure records SubjectErased and destroys the key; it refuses another type, or an event about another subject")
    func erasureRecordsItsOwnFact() async throws {
        let db = try await Self.logWithKey()
        try await db.as(.administrator) { client async throws in
            let store = EventStore(pool: client)
            let other = try SubjectErasure.event(subject: "p_2", reason: "erasureRequest")
            #expect(await client.sqlState("SELECT * FROM ledger.erase_subject('acme', 'p_1', \(other.canonicalText))") == "CL004")
            #expect(await client.sqlState("SELECT * FROM ledger.erase_subject('acme', 'p_1', \(Self.sharedAsLedger))") == "CL010")
            let appended = try await store.erase(log: "acme", subject: "p_1", erasure: try SubjectErasure.event(subject: "p_1", reason: "erasureRequest"))
            #expect(appended.position == 2)
        }
        let intact = try await Self.keyIsIntact(db)
        #expect(!intact)
    }

    @Test("the retention run records RetentionApplied and destroys the keys it names; it refuses another type")
    func retentionRecordsItsOwnFact() async throws {
        let db = try await Self.logWithKey()
        try await db.as(.administrator) { client async throws in
            #expect(await client.sqlState("SELECT * FROM ledger.apply_retention('acme', \(Self.subjectErased))") == "CL010")
            let run = try RetentionRun.event(policyId: "retention-2026-01", scope: "subjectKeys", reason: "retentionPeriodElapsed", subjects: ["p_1"])
            let appended = try await EventStore(pool: client).applyRetention(log: "acme", retention: run)
            #expect(appended.position == 2 && appended.stream == "retention")
        }
        let intact = try await Self.keyIsIntact(db)
        #expect(!intact)
    }

    @Test("the database's rule is the catalogue's: for every type, actor and function, it refuses exactly what every route ending there refuses, with the same message")
    func databaseAgreesWithSwift() async throws {
        let db = try await TestDatabase.create()
        let functions: [(String, [AppendRoute])] = [("ledger.append_events", [.append, .appStoreNotification]),
                                                    ("ledger.erase_subject", [.erase]), ("ledger.apply_retention", [.retention])]
        try await db.as(.administrator) { client async throws in
            for schema in EventCatalogue.schemas {
                for actor in EventEnvelope.Actor.kinds.sorted() {
                    let envelope = try CatalogueRoundTripTests.input(schema, index: 1, actor: actor).envelope
                    let event = #"{"type":"\#(schema.type)","actor":{"kind":"\#(actor)"}}"#
                    for (function, routes) in functions {
                        var refusals: [LedgerError] = []
                        for route in routes {
                            do throws(LedgerError) { try EventCatalogue.checkAppender(of: envelope, route: route) } catch { refusals.append(error) }
                        }
                        let rows = try await client.query("SELECT ledger.append_route_problem(\(event)::jsonb, \(function))")
                        var sql: String?
                        for try await problem in rows.decode(String?.self) { sql = problem }
                        let swift = refusals.count == routes.count ? refusals.first.map { "\($0.field ?? ""): \($0.message)" } : nil
                        #expect(sql == swift, "\(schema.type) as \(actor) through \(function)")
                    }
                }
            }
        }
    }

    @Test("the bulk load (COPY as the owner, past append_events) refuses the ledger's own facts before it copies anything")
    func bulkRefused() async throws {
        let db = try await Self.logWithKey()
        try await db.as(.administrator) { client async throws in
            let error = await #expect(throws: LedgerError.self) {
                _ = try await EventStore(pool: client).appendCopying(log: "acme", events: [try EventInput(line: Array(Self.subjectErased.utf8))])
            }
            #expect(error?.code == .appendNotPermitted)
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 1)
        }
        #expect(try await Self.keyIsIntact(db))
    }
}
