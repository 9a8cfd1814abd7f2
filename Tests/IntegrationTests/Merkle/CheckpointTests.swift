import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// Signing checkpoints: each one extends the last, and proofs made from them verify offline.
@Suite("signed checkpoints and proofs from PostgreSQL")
struct CheckpointTests {
    static func sign(_ db: TestDatabase, key: NoteSigningKey, log: String = "acme") async throws -> CheckpointStore.Signed {
        try await db.as(.administrator) { client in try await CheckpointStore(pool: client).sign(log: log, key: key) }
    }

    static func append(_ db: TestDatabase, _ count: Int, log: String = "acme") async throws {
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: log, events: try Fixtures.events(count))
        }
    }

    /// Runs `sql` as the owner with the append-only triggers of `table` disabled.
    static func tamper(_ db: TestDatabase, table: String, _ sql: String) async throws {
        try await db.as(.administrator) { client in
            try await client.withConnection { connection in
                for statement in ["BEGIN", "ALTER TABLE \(table) DISABLE TRIGGER USER", sql, "ALTER TABLE \(table) ENABLE TRIGGER USER", "COMMIT"] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .init(label: "t"))
                }
            }
        }
    }

    @Test("checkpoints extend each other, and the auditor's proofs verify offline against them")
    func signAndProve() async throws {
        let db = try await TestDatabase.create()
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        try await Self.append(db, 21)
        let first = try await Self.sign(db, key: key)
        #expect(first.isNew && first.previous == nil && first.verified == 1...21)
        #expect(first.checkpoint.treeSize == 21)
        let leaves = try await db.as(.auditor) { client in try await MerkleStoreTests.leafHashes(client) }
        #expect(first.checkpoint.rootHash == MerkleTree.root(of: leaves))
        let again = try await Self.sign(db, key: key)
        #expect(!again.isNew && again.checkpoint == first.checkpoint)

        try await Self.append(db, 12)
        let second = try await Self.sign(db, key: key)
        #expect(second.isNew && second.previous?.treeSize == 21 && second.verified == 22...33)
        let checkpoint = try Checkpoint.verified(note: second.checkpoint.note, key: key.verifierKey)
        #expect(checkpoint.size == 33 && checkpoint.origin == "ledger.example.com/acme")

        let (inclusion, consistency) = try await db.as(.auditor) { client in
            let maker = ProofMaker(pool: client)
            return (try await maker.inclusion(log: "acme", position: 30, since: 21), try await maker.consistency(log: "acme", from: 21))
        }
        let reparsed = try ProofBundle(json: CanonicalJSON.encode(inclusion.json))
        #expect(reparsed == inclusion)
        _ = try ProofBundleVerifier.verify(reparsed, key: key.verifierKey, trusted: first.checkpoint.note)
        _ = try ProofBundleVerifier.verify(consistency, key: key.verifierKey, trusted: first.checkpoint.note)
        // The record in the bundle is the stored one, byte for byte.
        let stored = try await db.as(.auditor) { client in
            let rows = try await client.query("SELECT record FROM ledger.events WHERE log_id = 'acme' AND position = 30")
            for try await record in rows.decode(Data.self) { return Array(record) }
            return []
        }
        #expect(inclusion.inclusion?.record == stored)
        // Against the first checkpoint, a record after it has no proof.
        await #expect(throws: LedgerError.self) {
            try await db.as(.auditor) { client in try await ProofMaker(pool: client).inclusion(log: "acme", position: 30, checkpointSize: 21) }
        }
    }

    @Test("a log rewritten below the last checkpoint is not signed again")
    func rewrittenHistory() async throws {
        let db = try await TestDatabase.create()
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        try await Self.append(db, 16)
        _ = try await Self.sign(db, key: key)
        try await Self.append(db, 4)
        // Rewrite the stored root of the signed part (leaves 0..<16), as an operator who changed a
        // record and rebuilt the tree over it would.
        try await Self.tamper(db, table: "ledger.merkle_nodes",
                              "UPDATE ledger.merkle_nodes SET hash = sha256(hash) WHERE log_id = 'acme' AND level = 4 AND index = 0")
        await #expect(throws: LedgerError.self) { try await Self.sign(db, key: key) }
        let count = try await db.as(.auditor) { client in try await client.int("SELECT count(*) FROM ledger.checkpoints") }
        #expect(count == 1)
    }

    @Test("a record changed after the last checkpoint is found before signing, and nothing is signed")
    func changedRecordAfterCheckpoint() async throws {
        let db = try await TestDatabase.create()
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        try await Self.append(db, 8)
        _ = try await Self.sign(db, key: key)
        try await Self.append(db, 5)
        try await Self.tamper(db, table: "ledger.events",
                              "UPDATE ledger.events SET record = record || ' '::bytea WHERE log_id = 'acme' AND position = 11")
        do {
            _ = try await Self.sign(db, key: key)
            Issue.record("signed a log with a changed record")
        } catch let error as LedgerError {
            #expect(error.code == .integrityFailure)
            #expect(error.message.contains("position 11"))
        }
    }

    @Test("the database refuses a checkpoint that shrinks, outruns the tree or lies about the chain")
    func recordCheckpointRefusals() async throws {
        let db = try await TestDatabase.create()
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        try await Self.append(db, 6)
        _ = try await Self.sign(db, key: key)
        try await db.as(.administrator) { client async throws in
            let zero = Data(repeating: 0, count: 32)
            func record(_ size: Int64, chain: Data) async throws -> String? {
                let query: PostgresQuery = try "SELECT ledger.record_checkpoint('acme', \(size), \(zero), \(chain), 'o', 'k', 1, 'v', 'n')"
                return await client.sqlState(query)
            }
            #expect(try await record(7, chain: zero) == "CL009")             // beyond the tree (6)
            #expect(try await record(6, chain: zero) == "CL009")             // same size, another root
            #expect(try await record(3, chain: zero) == "CL009")             // older than the last
            #expect(await client.sqlState("UPDATE ledger.checkpoints SET note = ''") == "CL005")
        }
    }
}
