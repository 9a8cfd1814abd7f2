import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// Erasure leaves no readable copy of the destroyed key in the key table (issue 36, finding 12):
/// destroying a key wrote a new row version, and the old one, key included, stayed in the table's
/// page until a vacuum came by.
@Suite("Erasure vacuums the key table")
struct ErasureVacuumTests {
    @Test("after erase, no row version of ledger.subject_keys still holds the destroyed key")
    func noDeadKeyLeft() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: "acme", events: [try PersonalDataTests.event(subject: "p_1", reason: "phoned")])
        }
        try await db.as(.administrator) { client async throws in
            _ = try await client.query("CREATE EXTENSION IF NOT EXISTS pageinspect")
            var key: [UInt8] = []
            for try await bytes in try await client.query("SELECT key FROM ledger.subject_keys WHERE subject = 'p_1'").decode(ByteBuffer.self) {
                key = Array(buffer: bytes)
            }
            #expect(key.count == 32)
            /// Row versions on the table's pages (live or dead) whose bytes hold the key.
            func copies() async throws -> Int64 {
                try await client.int("""
                    SELECT count(*) FROM generate_series(0, pg_relation_size('ledger.subject_keys') / 8192 - 1) b,
                           heap_page_items(get_raw_page('ledger.subject_keys', b::int)) i
                     WHERE i.t_data IS NOT NULL AND position(\(ByteBuffer(bytes: key)) IN i.t_data) > 0
                    """)
            }
            #expect(try await copies() == 1)
            let ledger = Ledger(pools: RolePools(application: client, auditor: client, administrator: client))
            _ = try await ledger.erase(log: "acme", subject: "p_1", erasure: try SubjectErasure.event(subject: "p_1", reason: "erasureRequest"))
            #expect(try await copies() == 0, "the destroyed key's row version is gone from the table")
        }
    }
}
