import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Migrator")
struct MigratorTests {
    @Test("migrating again changes nothing and keeps the data")
    func idempotent() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(4))
        }
        let outcome = try await db.as(.administrator) { client in try await Migrator(pool: client).migrate() }
        #expect(outcome.previousVersion == outcome.version)
        try await db.as(.administrator) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 4)
            #expect(try await client.int("SELECT count(*) FROM ledger.schema_version") == 1)
        }
    }

    @Test("a database whose schema is newer than this build is refused, and left as it was")
    func newerSchemaRefused() async throws {
        let db = try await TestDatabase.create()
        let error = try await db.as(.administrator) { client async throws in
            try await client.query("INSERT INTO ledger.schema_version (version, software) VALUES (99, 'the future')")
            return await #expect(throws: LedgerError.self) { _ = try await Migrator(pool: client).migrate() }
        }
        #expect(error?.code == .schemaTooNew)
        #expect(error?.message.contains("version 99") == true)
    }

    @Test("every .sql file this build carries is in the manifest, once")
    func manifestComplete() throws {
        let manifest = try SchemaManifest.embedded()
        let listed = manifest.files.map(\.path)
        #expect(Set(listed).count == listed.count)
        #expect(Set(listed) == Set(SchemaManifest.embeddedPaths))
    }

    @Test("the objects are owned by the owner role, and nobody else may create in the schema")
    func ownership() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.administrator) { client async throws in
            let notOwned = try await client.int("""
                SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'ledger' AND pg_get_userbyid(c.relowner) <> 'consent_ledger_owner'
                """)
            #expect(notOwned == 0)
        }
        try await db.as(.application) { client async throws in
            #expect(await client.sqlState("CREATE TABLE ledger.sneaky (x int)") == "42501")
        }
    }
}
