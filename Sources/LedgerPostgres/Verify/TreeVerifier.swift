import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Checks a log's stored Merkle tree and signed checkpoints against its leaf hashes: the part of
/// `consent-ledger verify` that follows the record-by-record check (which establishes the leaf
/// hashes). Level by level, every stored node must be SHA-256(0x01 || left || right) of the level
/// below (level 0: the events' leaf hashes) and each level must hold exactly the complete subtrees
/// of the built size; then every checkpoint's root must be the tree's root at its size, its chain
/// hash the log's there, and its note validly signed by the key recorded with it.
public struct TreeVerifier: Sendable {
    /// What was found.
    public struct Report: Sendable, Equatable {
        /// Leaves whose tree is built.
        public var treeSize: UInt64
        /// Stored nodes checked.
        public var nodesChecked: Int64
        /// Checkpoints checked.
        public var checkpointsChecked: Int
        /// The first problem, if any.
        public var problem: String?
        /// True when everything checked.
        public var passed: Bool { problem == nil }
    }

    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A verifier over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.verify")) {
        self.pool = pool
        self.logger = logger
    }

    /// Verifies the tree and checkpoints of `log`; `progress` hears each level as it is checked.
    public func verify(log: String, progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        let size = try await MerkleStore(pool: pool, logger: logger).size(log: log)
        var checked: Int64 = 0
        var level = 1
        while size >> UInt64(level) > 0 {
            let expected = Int64(size >> UInt64(level))
            progress("checking level \(level) of the Merkle tree (\(expected) nodes)")
            let (count, firstBad) = try await check(log: log, level: level, expected: expected)
            checked += count
            if count != expected {
                return Report(treeSize: size, nodesChecked: checked, checkpointsChecked: 0,
                              problem: "the Merkle tree holds \(count) nodes at level \(level), not the \(expected) of a tree of \(size) leaves")
            }
            if let firstBad {
                let first = firstBad << Int64(level)
                return Report(treeSize: size, nodesChecked: checked, checkpointsChecked: 0,
                              problem: "the Merkle node at level \(level), index \(firstBad) (positions \(first + 1) to "
                                  + "\(first + (1 << Int64(level)))) does not hash from the level below")
            }
            level += 1
        }
        var checkpoints = 0
        let rows = try await pool.query(
            "SELECT tree_size FROM ledger.checkpoints WHERE log_id = \(log) ORDER BY tree_size", logger: logger)
        var sizes: [Int64] = []
        for try await treeSize in rows.decode(Int64.self) { sizes.append(treeSize) }
        let store = CheckpointStore(pool: pool, logger: logger)
        let tree = MerkleStore(pool: pool, logger: logger)
        for treeSize in sizes {
            guard let checkpoint = try await store.at(log: log, size: treeSize) else { continue }
            progress("checking the checkpoint of \(treeSize) leaves")
            checkpoints += 1
            let problem: String?
            if UInt64(treeSize) > size {
                problem = "the checkpoint of \(treeSize) leaves is beyond the built tree (\(size) leaves)"
            } else if try await tree.root(log: log, size: UInt64(treeSize)) != checkpoint.rootHash {
                problem = "the checkpoint of \(treeSize) leaves signs a root that is not the tree's root at that size"
            } else if try await store.chainHash(log: log, position: treeSize) != checkpoint.chainHash {
                problem = "the checkpoint of \(treeSize) leaves records a chain hash that is not the log's at position \(treeSize)"
            } else {
                problem = checkpoint.signatureProblem
            }
            if let problem {
                return Report(treeSize: size, nodesChecked: checked, checkpointsChecked: checkpoints, problem: problem)
            }
        }
        return Report(treeSize: size, nodesChecked: checked, checkpointsChecked: checkpoints, problem: nil)
    }

    /// How many nodes level `level` holds, and the first whose hash is not that of its children.
    private func check(log: String, level: Int, expected: Int64) async throws -> (Int64, Int64?) {
        let children = level == 1
            ? "SELECT (position - 1) / 2 AS parent, sha256('\\x01'::bytea || string_agg(leaf_hash, ''::bytea ORDER BY position)) AS hash "
                + "FROM ledger.events WHERE log_id = $1 AND position <= 2 * $2 GROUP BY 1"
            : "SELECT index / 2 AS parent, sha256('\\x01'::bytea || string_agg(hash, ''::bytea ORDER BY index)) AS hash "
                + "FROM ledger.merkle_nodes WHERE log_id = $1 AND level = $3 - 1 AND index < 2 * $2 GROUP BY 1"
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(expected)
        binds.append(Int64(level))
        let rows = try await pool.query(PostgresQuery(unsafeSQL: """
            SELECT count(n.index)::bigint, min(n.index) FILTER (WHERE c.hash IS DISTINCT FROM n.hash)
              FROM ledger.merkle_nodes n
              LEFT JOIN (\(children)) c ON c.parent = n.index
             WHERE n.log_id = $1 AND n.level = $3
            """, binds: binds), logger: logger)
        for try await (count, firstBad) in rows.decode((Int64, Int64?).self) { return (count, firstBad) }
        return (0, nil)
    }
}
