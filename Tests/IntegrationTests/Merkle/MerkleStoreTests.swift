import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// The tree PostgreSQL keeps (ledger.extend_merkle_tree) against the naive RFC 9162 recursion
/// over the same leaf hashes, built in uneven steps.
@Suite("the Merkle tree in PostgreSQL")
struct MerkleStoreTests {
    /// The log's leaf hashes in position order.
    static func leafHashes(_ client: LedgerPool, log: String = "acme") async throws -> [[UInt8]] {
        let rows = try await client.query("SELECT leaf_hash FROM ledger.events WHERE log_id = \(log) ORDER BY position")
        var leaves: [[UInt8]] = []
        for try await hash in rows.decode(Data.self) { leaves.append(Array(hash)) }
        return leaves
    }

    @Test("built in uneven steps, its root at every size is the naive root over the leaves")
    func rootsAtEverySize() async throws {
        let db = try await TestDatabase.create()
        var generator = SystemRandomNumberGenerator()
        try await db.as(.application) { client in
            let store = EventStore(pool: client)
            let tree = MerkleStore(pool: client)
            var appended = 0
            var checkedUpTo: UInt64 = 0
            while appended < 75 {
                let batch = Int.random(in: 1...9, using: &generator)
                _ = try await store.append(log: "acme", events: try Fixtures.events(batch))
                appended += batch
                // Extend by an uneven number of leaves, sometimes not to the head.
                let step = Int64.random(in: 1...12, using: &generator)
                _ = try await client.int("SELECT ledger.extend_merkle_tree('acme', \(step))")
                let built = try await tree.size(log: "acme")
                let leaves = try await Self.leafHashes(client)
                for size in stride(from: checkedUpTo + 1, through: built, by: 1) {
                    #expect(try await tree.root(log: "acme", size: size) == MerkleTree.root(of: Array(leaves.prefix(Int(size)))), "size \(size)")
                }
                checkedUpTo = max(checkedUpTo, built)
            }
            #expect(try await tree.extend(log: "acme") == UInt64(appended))
            let leaves = try await Self.leafHashes(client)
            for size in stride(from: checkedUpTo + 1, through: UInt64(appended), by: 1) {
                #expect(try await tree.root(log: "acme", size: size) == MerkleTree.root(of: Array(leaves.prefix(Int(size)))), "size \(size)")
            }
            // One stored node per complete subtree of two or more leaves.
            let expectedNodes = (1...6).reduce(0) { $0 + appended >> $1 }
            #expect(try await client.int("SELECT count(*) FROM ledger.merkle_nodes WHERE log_id = 'acme'") == Int64(expectedNodes))
        }
    }

    @Test("inclusion and consistency proofs read from PostgreSQL are the in-memory generators' for every pair up to 33 leaves")
    func proofsForEveryPair() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(33))
            let tree = MerkleStore(pool: client)
            #expect(try await tree.extend(log: "acme") == 33)
            let leaves = try await Self.leafHashes(client)
            let memory = InMemoryMerkleSource(leafHashes: leaves)
            for size in UInt64(1)...33 {
                let root = MerkleTree.root(of: Array(leaves.prefix(Int(size))))
                for index in 0..<size {
                    let path = try await tree.inclusionProof(log: "acme", index: index, size: size)
                    #expect(path == (try await MerkleTree.inclusionProof(index: index, size: size, source: memory)))
                    try MerkleProofVerifier.verifyInclusion(leafHash: leaves[Int(index)], index: index, size: size, proof: path, root: root)
                }
                for from in 1...size {
                    let proof = try await tree.consistencyProof(log: "acme", from: from, to: size)
                    #expect(proof == (try await MerkleTree.consistencyProof(from: from, to: size, source: memory)))
                }
            }
        }
    }

    @Test("a proof beyond the built tree is refused with what to run")
    func beyondTheTree() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(5))
            let tree = MerkleStore(pool: client)
            await #expect(throws: LedgerError.self) { try await tree.root(log: "acme", size: 3) }
            _ = try await client.int("SELECT ledger.extend_merkle_tree('acme', 3)")
            #expect(try await tree.size(log: "acme") == 3)
            await #expect(throws: LedgerError.self) { try await tree.inclusionProof(log: "acme", index: 0, size: 4) }
            #expect(await client.sqlState("SELECT ledger.extend_merkle_tree('nope')") == "CL008")
        }
    }

    @Test("the tree and checkpoints are append-only, even for the owner")
    func appendOnly() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(4))
            _ = try await client.int("SELECT ledger.extend_merkle_tree('acme')")
            #expect(await client.sqlState("UPDATE ledger.merkle_nodes SET hash = hash") == "42501")
            #expect(await client.sqlState("INSERT INTO ledger.merkle_nodes VALUES ('acme', 1, 9, sha256(''))") == "42501")
        }
        try await db.as(.administrator) { client in
            #expect(await client.sqlState("UPDATE ledger.merkle_nodes SET hash = hash") == "CL005")
            #expect(await client.sqlState("DELETE FROM ledger.merkle_nodes") == "CL005")
            #expect(await client.sqlState("TRUNCATE ledger.merkle_nodes") == "CL005")
            #expect(await client.sqlState("DELETE FROM ledger.merkle_trees") == "CL005")
        }
    }
}
