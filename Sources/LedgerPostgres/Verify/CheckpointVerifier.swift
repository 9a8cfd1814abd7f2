import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Checks every signed checkpoint of a log: its root must be the stored tree's root at its size,
/// its chain hash the log's at that position, and its note validly signed by the key recorded
/// with it (``StoredCheckpoint/problems(pool:logger:)``). The part of `consent-ledger verify`
/// that follows the check of the events and of the stored tree (``LogVerifier``), which
/// establishes the leaf hashes and the nodes the roots are computed from.
public struct CheckpointVerifier: Sendable {
    /// What was found.
    public struct Report: Sendable, Equatable {
        /// Checkpoints checked.
        public var checkpointsChecked: Int
        /// The first problem, if any.
        public var problem: String?
        /// True when every checkpoint checked.
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

    /// Verifies every checkpoint of `log`, oldest first; `progress` hears each as it is checked.
    public func verify(log: String, progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        let size = try await MerkleStore(pool: pool, logger: logger).size(log: log)
        let rows = try await pool.query(
            "SELECT tree_size FROM ledger.checkpoints WHERE log_id = \(log) ORDER BY tree_size", logger: logger)
        var sizes: [Int64] = []
        for try await treeSize in rows.decode(Int64.self) { sizes.append(treeSize) }
        let store = CheckpointStore(pool: pool, logger: logger)
        var checked = 0
        for treeSize in sizes {
            guard let checkpoint = try await store.at(log: log, size: treeSize) else { continue }
            progress("checking the checkpoint of \(treeSize) leaves")
            checked += 1
            let problem = UInt64(treeSize) > size
                ? "the checkpoint of \(treeSize) leaves is beyond the built tree (\(size) leaves)"
                : try await checkpoint.problems(pool: pool, logger: logger).first
            if let problem { return Report(checkpointsChecked: checked, problem: problem) }
        }
        return Report(checkpointsChecked: checked, problem: nil)
    }
}
