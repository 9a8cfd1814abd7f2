import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// `verify`'s check of the stored tree and checkpoints: it finds what signing a new checkpoint
/// would not (a node no proof has read yet, a checkpoint row edited behind the database's back).
@Suite("verify: the stored Merkle tree and checkpoints")
struct TreeVerifierTests {
    /// What verify found of the tree (``LogVerifier``) and the checkpoints (``CheckpointVerifier``).
    struct Found {
        var treeSize: Int64
        var nodesChecked: Int64
        var checkpointsChecked: Int
        var problem: String?
        var passed: Bool { problem == nil }
    }

    static func verified(after tamper: (table: String, sql: String)?, rangeSize: Int64 = LogVerifier.defaultRangeSize) async throws -> Found {
        let db = try await TestDatabase.create()
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        try await CheckpointTests.append(db, 21)
        _ = try await CheckpointTests.sign(db, key: key)
        try await CheckpointTests.append(db, 6)
        _ = try await CheckpointTests.sign(db, key: key)
        if let tamper { try await CheckpointTests.tamper(db, table: tamper.table, tamper.sql) }
        return try await db.as(.auditor) { client in
            let events = try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme", rangeSize: rangeSize)
            #expect(events.problem == nil, "\(String(describing: events.problem))")
            let tree = try #require(events.tree)
            if let problem = tree.problem { return Found(treeSize: tree.size, nodesChecked: tree.nodesChecked, checkpointsChecked: 0, problem: problem) }
            let checkpoints = try await CheckpointVerifier(pool: client).verify(log: "acme")
            return Found(treeSize: tree.size, nodesChecked: tree.nodesChecked, checkpointsChecked: checkpoints.checkpointsChecked,
                         problem: checkpoints.problem)
        }
    }

    @Test("an untouched tree and its checkpoints verify")
    func clean() async throws {
        let report = try await Self.verified(after: nil)
        #expect(report.passed, "\(report.problem ?? "")")
        #expect(report.treeSize == 27 && report.checkpointsChecked == 2)
        #expect(report.nodesChecked == 13 + 6 + 3 + 1)
        // In ranges of 4 leaves: levels 1 and 2 inside the ranges, levels 3 and 4 above them.
        let ranged = try await Self.verified(after: nil, rangeSize: 4)
        #expect(ranged.passed, "\(ranged.problem ?? "")")
        #expect(ranged.nodesChecked == 13 + 6 + 3 + 1)
    }

    @Test("in ranges of 4 leaves, a changed node inside a range and one above the ranges are each named")
    func changedNodeInRanges() async throws {
        let inside = try await Self.verified(after: ("ledger.merkle_nodes",
            "UPDATE ledger.merkle_nodes SET hash = sha256(hash) WHERE log_id = 'acme' AND level = 1 AND index = 9"), rangeSize: 4)
        #expect(inside.problem?.contains("level 1, index 9 (positions 19 to 20)") == true, "\(inside.problem ?? "")")
        let above = try await Self.verified(after: ("ledger.merkle_nodes",
            "UPDATE ledger.merkle_nodes SET hash = sha256(hash) WHERE log_id = 'acme' AND level = 3 AND index = 2"), rangeSize: 4)
        #expect(above.problem?.contains("level 3, index 2 (positions 17 to 24)") == true, "\(above.problem ?? "")")
    }

    @Test("a changed inner node is named by level and index")
    func changedNode() async throws {
        let report = try await Self.verified(after: ("ledger.merkle_nodes",
            "UPDATE ledger.merkle_nodes SET hash = sha256(hash) WHERE log_id = 'acme' AND level = 2 AND index = 3"))
        #expect(report.problem?.contains("level 2, index 3 (positions 13 to 16)") == true, "\(report.problem ?? "")")
    }

    @Test("a missing node is found")
    func missingNode() async throws {
        let report = try await Self.verified(after: ("ledger.merkle_nodes",
            "DELETE FROM ledger.merkle_nodes WHERE log_id = 'acme' AND level = 1 AND index = 5"))
        #expect(report.problem?.contains("holds 12 nodes at level 1") == true, "\(report.problem ?? "")")
    }

    @Test("a checkpoint whose note was edited no longer verifies")
    func editedCheckpoint() async throws {
        let report = try await Self.verified(after: ("ledger.checkpoints",
            "UPDATE ledger.checkpoints SET note = replace(note, E'\\n21\\n', E'\\n20\\n') WHERE log_id = 'acme' AND tree_size = 21"))
        #expect(report.problem?.contains("checkpoint of 21 leaves") == true, "\(report.problem ?? "")")
    }
}

extension TreeVerifierTests {
    @Test("a checkpoint whose recorded chain hash was changed is named (found by tools/faults tamper)")
    func changedCheckpointChainHash() async throws {
        let report = try await Self.verified(after: ("ledger.checkpoints",
            "UPDATE ledger.checkpoints SET chain_hash = sha256(chain_hash) WHERE log_id = 'acme' AND tree_size = 21"))
        #expect(report.problem?.contains("the checkpoint of 21 leaves records a chain hash that is not the log's at position 21") == true,
                "\(report.problem ?? "")")
    }
}
