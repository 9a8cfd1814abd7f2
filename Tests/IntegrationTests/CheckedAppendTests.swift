import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

/// Decision 0072: the ledger's own writer (`consent_ledger_writer`) stores batches it has checked
/// itself through `ledger.append_checked_events`; every other role meets the catalogue in SQL
/// through `ledger.append_events`. The integrity gate holds for both.
@Suite("The checked append: who may store what")
struct CheckedAppendTests {
    /// `db` as database user `user` (the embedded cluster trusts its local socket).
    static func asUser<Result: Sendable>(_ db: TestDatabase, _ user: String, _ body: (LedgerPool) async throws -> Result) async throws -> Result {
        var settings = db.settings(.application)
        settings.username = user
        return try await LedgerDatabase.withRunningPool(settings, body)
    }

    /// A call of `ledger.append_checked_events` for one event given as a line, with its columns as
    /// the line says, except those `override` replaces (by parameter name, SQL text).
    static func checkedCall(_ line: String, log: String = "acme", expected: String = "any", override: [String: String] = [:]) throws -> PostgresQuery {
        let event = try EventInput(line: Array(line.utf8))
        let envelope = event.envelope
        func text(_ value: String?) -> String { value.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL::text" }
        var columns: [(String, String)] = [
            ("event_ids", "ARRAY[\(text(envelope.eventId))]::uuid[]"), ("streams", "ARRAY[\(text(envelope.stream))]"),
            ("types", "ARRAY[\(text(envelope.type))]"), ("schema_versions", "ARRAY[\(envelope.schemaVersion)]"),
            ("occurred_at", "ARRAY[\(text(envelope.occurredAt))]::timestamptz[]"), ("subjects", "ARRAY[\(text(envelope.subject))]"),
            ("actor_kinds", "ARRAY[\(text(envelope.actor.kind))]"), ("actor_ids", "ARRAY[\(text(envelope.actor.id))]"),
            ("correlation_ids", "ARRAY[\(text(envelope.correlationId))]"), ("causation_ids", "ARRAY[\(text(envelope.causationId))]"),
            ("expected_versions", "ARRAY['\(expected)']"),
        ]
        for index in columns.indices { if let replaced = override[columns[index].0] { columns[index].1 = replaced } }
        let sql = "SELECT * FROM ledger.append_checked_events('\(log)', ARRAY[\(text(event.canonicalText))], "
            + columns.map(\.1).joined(separator: ", ") + ", NULL, NULL, NULL)"
        return PostgresQuery(unsafeSQL: sql)
    }

    @Test("the writer and the owner store checked batches; the application role stores through the catalogue in SQL; the auditor appends neither way")
    func functionsPerRole() async throws {
        let db = try await TestDatabase.create()
        for (user, function) in [("consent_ledger_writer", AppendFunction.checked), ("consent_ledger_app", .catalogueInSQL),
                             ("consent_ledger_auditor", .catalogueInSQL)] {
            try await Self.asUser(db, user) { pool async throws in
                let found = try await pool.withConnection { connection in try await AppendFunction.of(connection, logger: pool.logger) }
                #expect(found == function, "\(user)")
            }
        }
        try await db.as(.administrator) { pool async throws in
            #expect(try await pool.withConnection { try await AppendFunction.of($0, logger: pool.logger) } == .checked)
        }
        // Each role's appends through the store, as serve and the CLI make them.
        for user in ["consent_ledger_writer", "consent_ledger_app"] {
            try await Self.asUser(db, user) { pool async throws in
                let result = try await EventStore(pool: pool).append(log: "acme", events: try Fixtures.events(3))
                #expect(result.events.count == 3, "\(user)")
            }
        }
        try await Self.asUser(db, "consent_ledger_auditor") { pool async throws in
            await #expect(throws: LedgerError.self) { _ = try await EventStore(pool: pool).append(log: "acme", events: try Fixtures.events(1)) }
            #expect(await pool.sqlState(try Self.checkedCall(Fixtures.line())) == "42501")
        }
        try await Self.asUser(db, "consent_ledger_app") { pool async throws in
            #expect(await pool.sqlState(try Self.checkedCall(Fixtures.line())) == "42501", "the application role may not skip the catalogue")
        }
        try await db.as(.administrator) { pool async throws in
            #expect(try await pool.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") == 6)
            #expect(try await pool.int("SELECT head_position FROM ledger.logs WHERE log_id = 'acme'") == 6)
        }
    }

    @Test("a writer's columns that do not say what its event says are refused by the insert trigger (CL006), naming the column; nothing is stored",
          arguments: [("types", "ARRAY['AgeRangeDeclined']"), ("event_ids", "ARRAY[gen_random_uuid()]"),
                      ("streams", "ARRAY['subject-p_2']"), ("occurred_at", "ARRAY['2020-01-01T00:00:00Z'::timestamptz]"),
                      ("subjects", "ARRAY['p_9']"), ("actor_kinds", "ARRAY['guardian']")])
    func columnsAgainstRecord(column: String, value: String) async throws {
        let db = try await TestDatabase.create()
        try await Self.asUser(db, "consent_ledger_writer") { pool async throws in
            let error = await #expect(throws: PSQLError.self) { _ = try await pool.raw(try Self.checkedCall(Fixtures.line(), override: [column: value])) }
            #expect(error?.serverInfo?[.sqlState] == "CL006", "\(column)")
            #expect(error?.serverInfo?[.message]?.contains("column ") == true, "\(String(describing: error?.serverInfo?[.message]))")
            #expect(try await pool.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }

    @Test("the writer meets who may append each type (CL010), expected versions (CL001) and unique event ids (CL003) in the words append_events uses")
    func rulesEveryWriterMeets() async throws {
        let db = try await TestDatabase.create()
        try await Self.asUser(db, "consent_ledger_writer") { pool async throws in
            #expect(await pool.sqlState(try Self.checkedCall(AppendPermissionTests.sharedAsLedger)) == "CL010")
            #expect(await pool.sqlState(try Self.checkedCall(AppendPermissionTests.subjectErased)) == "CL010")
            let id = UUID().uuidString.lowercased()
            _ = try await pool.raw(try Self.checkedCall(Fixtures.line(id: id)))
            for query in [try Self.checkedCall(Fixtures.line(id: id)), PostgresQuery(unsafeSQL: "SELECT * FROM ledger.append_events('acme', ARRAY['\(Fixtures.line(id: id))'])")] {
                let error = await #expect(throws: PSQLError.self) { _ = try await pool.raw(query) }
                #expect(error?.serverInfo?[.sqlState] == "CL003")
                #expect(error?.serverInfo?[.message] == "event 1 of the batch: eventId \(id) is already stored in log acme at position 1")
            }
            for query in [try Self.checkedCall(Fixtures.line(), expected: "noStream"),
                          PostgresQuery(unsafeSQL: "SELECT * FROM ledger.append_events('acme', ARRAY['\(Fixtures.line())'], ARRAY['noStream'])")] {
                let error = await #expect(throws: PSQLError.self) { _ = try await pool.raw(query) }
                #expect(error?.serverInfo?[.sqlState] == "CL001")
                #expect(error?.serverInfo?[.message] == "Wrong expected version: event 1 of the batch expected stream subject-p_1 not to exist, but it is at version 1")
            }
            #expect(try await pool.int("SELECT count(*) FROM ledger.events") == 1)
        }
    }

    @Test("the writer is trusted with the catalogue: an event the catalogue refuses, which append_events refuses (CL004), is stored when the writer hands it over")
    func writerIsTrusted() async throws {
        let db = try await TestDatabase.create()
        // Valid for the Swift catalogue, then its payload changed behind it: no lower bound above its upper.
        let valid = Fixtures.line()
        let invalid = valid.replacingOccurrences(of: #""lowerBound":13"#, with: #""lowerBound":16"#)
        try await Self.asUser(db, "consent_ledger_app") { pool async throws in
            #expect(await pool.sqlState(PostgresQuery(unsafeSQL: "SELECT * FROM ledger.append_events('acme', ARRAY['\(invalid)'])")) == "CL004")
        }
        try await Self.asUser(db, "consent_ledger_writer") { pool async throws in
            let event = try EventInput(line: Array(valid.utf8))
            let call = try Self.checkedCall(valid).sql.replacingOccurrences(of: event.canonicalText.replacingOccurrences(of: "'", with: "''"),
                                                                          with: event.canonicalText.replacingOccurrences(of: #""lowerBound":13"#, with: #""lowerBound":16"#))
            _ = try await pool.raw(PostgresQuery(unsafeSQL: call))
            #expect(try await pool.int("SELECT count(*) FROM ledger.events") == 1, "decision 0072: the writer's login belongs to the ledger's own processes only")
        }
    }
}
