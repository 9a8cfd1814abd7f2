import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Immutability, enforced by PostgreSQL")
struct ImmutabilityTests {
    static let mutations: [String] = [
        "UPDATE ledger.events SET type = 'Forged' WHERE position = 1",
        "DELETE FROM ledger.events WHERE position = 2",
        "TRUNCATE ledger.events CASCADE",
        "UPDATE ledger.batches SET first_position = 9",
        "DELETE FROM ledger.batches",
        "DELETE FROM ledger.logs",
        "TRUNCATE ledger.logs CASCADE",
        "UPDATE ledger.logs SET head_position = 0",
        "UPDATE ledger.logs SET head_chain_hash = sha256('forged'::bytea)",
        "UPDATE ledger.logs SET log_id = 'other'",
        "INSERT INTO ledger.logs (log_id, head_position, head_chain_hash) VALUES ('forged', 1, sha256('forged'::bytea))",
    ]

    @Test("the application role may not UPDATE, DELETE, TRUNCATE or INSERT", arguments: mutations + [
        "INSERT INTO ledger.events SELECT * FROM ledger.events WHERE position = 1",
        "UPDATE ledger.event_days SET events = events + 1",
        "DELETE FROM ledger.event_days",
    ])
    func applicationRoleRefused(sql: String) async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(3), idempotencyKey: "k")
            #expect(await client.sqlState(PostgresQuery(unsafeSQL: sql)) == "42501")
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 3)
        }
    }

    @Test("the auditor role may read but not append")
    func auditorReadsOnly() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(1))
        }
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 1)
            let body = try Fixtures.event().canonicalText
            #expect(await client.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(body)])") == "42501")
        }
    }

    @Test("even the owner and the superuser are stopped by the triggers", arguments: mutations)
    func ownerRefusedByTriggers(sql: String) async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(3), idempotencyKey: "k")
        }
        try await db.as(.administrator) { client async throws in
            // As the superuser …
            #expect(await client.sqlState(PostgresQuery(unsafeSQL: sql)) == "CL005")
            // … and as the schema's owner, on one connection.
            let ownerState: String? = try await client.withConnection { connection in
                _ = try await connection.query("SET ROLE consent_ledger_owner", logger: .init(label: "t"))
                do {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .init(label: "t"))
                    return nil
                } catch let error as PSQLError {
                    return error.serverInfo?[.sqlState]
                }
            }
            #expect(ownerState == "CL005")
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 3)
        }
    }

    /// A hand-written insert of position \(position) into log acme whose columns say what `record`
    /// (by default ``handRecord``) says; only the values under test differ.
    static func insert(position: Int64, record: String = handRecord, subject: String = "NULL", leaf: String, chain: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: """
            INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version,
              occurred_at, recorded_at, subject, actor_kind, record, leaf_hash, chain_hash)
            SELECT 'acme', \(position), '\(handEventId)', 's', 1, 'X', 1, '2026-11-22T11:15:00+01:00',
                   '2026-11-22T10:16:00.000001Z', \(subject), 'app', convert_to('\(record)', 'UTF8'), \(leaf), \(chain)
              FROM ledger.logs WHERE log_id = 'acme'
            """)
    }

    static let handEventId = "0b6f3c2e-1d4a-4e1b-9c3a-5b6d7e8f9a0b"
    /// The record ledger.append_events would build for the hand-written event at position 4.
    static let handRecord = #"{"event":{"actor":{"kind":"app"},"eventId":"\#(handEventId)","occurredAt":"2026-11-22T11:15:00+01:00","schemaVersion":1,"stream":"s","type":"X"},"log":"acme","position":4,"recordedAt":"2026-11-22T10:16:00.000001Z","streamVersion":1}"#

    @Test("a row inserted by hand with a wrong leaf hash, chain hash, position or column is refused")
    func handInsertedRowsRefused() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(3))
        }
        try await db.as(.administrator) { client async throws in
            let goodLeaf = "sha256('\\x00'::bytea || convert_to('\(Self.handRecord)', 'UTF8'))"
            let goodChain = "sha256(head_chain_hash || \(goodLeaf))"
            #expect(await client.sqlState(Self.insert(position: 4, leaf: "sha256('\\x00'::bytea || 'forged'::bytea)", chain: goodChain)) == "CL006")
            #expect(await client.sqlState(Self.insert(position: 4, leaf: goodLeaf, chain: "sha256(\(goodLeaf))")) == "CL006")
            #expect(await client.sqlState(Self.insert(position: 5, leaf: goodLeaf, chain: goodChain)) == "CL006")
            // Right in every hash, but its subject column says what its record does not.
            #expect(await client.sqlState(Self.insert(position: 4, subject: "'p_2'", leaf: goodLeaf, chain: goodChain)) == "CL006")
            // A row for a log that does not exist (events has no foreign key; the trigger checks).
            #expect(await client.sqlState(PostgresQuery(unsafeSQL: """
                INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version,
                  occurred_at, recorded_at, actor_kind, record, leaf_hash, chain_hash)
                VALUES ('nowhere', 1, gen_random_uuid(), 's', 1, 'X', 1, now(), now(), 'app', '\\x7b7d',
                        sha256('\\x007b7d'), sha256(sha256('\\x007b7d')))
                """)) == "CL006")
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 3)
            // The same insert with every value right is accepted: the trigger checks, it does not just refuse.
            #expect(await client.sqlState(Self.insert(position: 4, leaf: goodLeaf, chain: goodChain)) == nil)
            #expect(try await client.int("SELECT head_position FROM ledger.logs WHERE log_id = 'acme'") == 4)
        }
    }

    /// Issue 17: a superuser inserted another event's record, hashed and chained correctly, at the
    /// next position; the trigger checked only the hashes and took it.
    @Test("another event's record, correctly hashed and chained at the next position, is refused, naming the column")
    func copiedRecordRefused() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(5))
        }
        try await db.as(.administrator) { client async throws in
            let copied = PostgresQuery(unsafeSQL: """
                INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version,
                  occurred_at, recorded_at, subject, actor_kind, actor_id, correlation_id, causation_id, record, leaf_hash, chain_hash)
                SELECT e.log_id, l.head_position + 1, gen_random_uuid(), e.stream, e.stream_version + 100, e.type, e.schema_version,
                       e.occurred_at, e.recorded_at, e.subject, e.actor_kind, e.actor_id, e.correlation_id, e.causation_id,
                       e.record, e.leaf_hash, sha256(l.head_chain_hash || e.leaf_hash)
                  FROM ledger.events e JOIN ledger.logs l ON l.log_id = e.log_id
                 WHERE e.log_id = 'acme' AND e.position = 2
                """)
            let error = try await #require(throws: PSQLError.self) { _ = try await client.raw(copied) }
            #expect(error.serverInfo?[.sqlState] == "CL006")
            #expect(error.serverInfo?[.message]?.contains("position 6: column position is 6 but the record says '2'") == true,
                    "\(String(describing: error.serverInfo?[.message]))")
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 5)
            #expect(try await client.int("SELECT head_position FROM ledger.logs WHERE log_id = 'acme'") == 5)
        }
    }
}
