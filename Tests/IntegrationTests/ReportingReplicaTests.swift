import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// The reporting replica's refusals (decision 0053). The replica itself, on two real clusters
/// with logical replication between them, is checked end to end by tools/replica-check (CI).
@Suite("Reporting replica: what it refuses")
struct ReportingReplicaTests {
    @Test("publish is refused, with the setting to change, while the primary's wal_level is not logical")
    func publishNeedsLogicalWAL() async throws {
        let db = try await TestDatabase.create()
        let error = try await db.as(.administrator) { client async throws in
            #expect(try await client.int("SELECT (current_setting('wal_level') <> 'logical')::int") == 1)
            return await #expect(throws: LedgerError.self) { try await ReportingReplica.publish(pool: client) }
        }
        #expect(error?.message.contains("wal_level") == true)
        #expect(error?.hint?.contains("ALTER SYSTEM SET wal_level = logical") == true)
        try await db.as(.administrator) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM pg_publication") == 0)
        }
    }

    @Test("subscribe is refused on a database that holds events of its own, and changes nothing")
    func subscribeNeedsAnEmptyLedger() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(2))
        }
        let error = try await db.as(.administrator) { client async throws in
            await #expect(throws: LedgerError.self) {
                try await ReportingReplica.subscribe(pool: client, publisher: "postgres://postgres@127.0.0.1:1/consent_ledger")
            }
        }
        #expect(error?.message.contains("holds events of its own") == true)
        try await db.as(.administrator) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM pg_subscription") == 0)
            #expect(try await client.int("SELECT count(*) FROM pg_trigger WHERE tgname = 'reporting_replica_read_only'") == 0)
        }
    }
}
