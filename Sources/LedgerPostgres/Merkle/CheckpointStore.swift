import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Signed checkpoints of each log (`ledger.checkpoints`): read them, and sign a new one.
///
/// ```swift
/// let checkpoints = CheckpointStore(pool: pool)
/// let signed = try await checkpoints.sign(log: "acme", key: key)
/// print(signed.checkpoint.note)
/// ```
public struct CheckpointStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.checkpoints")) {
        self.pool = pool
        self.logger = logger
    }

    /// The newest checkpoint of `log` whose size is at most `atOrBelow` (any size when nil).
    public func latest(log: String, atOrBelow: Int64? = nil) async throws -> StoredCheckpoint? {
        try await first(log: log, where: "tree_size <= $2 ORDER BY tree_size DESC", atOrBelow ?? Int64.max)
    }

    /// The oldest checkpoint of `log` whose size is at least `atOrAbove`.
    public func earliest(log: String, atOrAbove: Int64) async throws -> StoredCheckpoint? {
        try await first(log: log, where: "tree_size >= $2 ORDER BY tree_size", atOrAbove)
    }

    /// The checkpoint of `log` of exactly `size`, if one was signed.
    public func at(log: String, size: Int64) async throws -> StoredCheckpoint? {
        try await first(log: log, where: "tree_size = $2", size)
    }

    private func first(log: String, where condition: String, _ size: Int64) async throws -> StoredCheckpoint? {
        var binds = PostgresBindings(capacity: 2)
        binds.append(log)
        binds.append(size)
        let rows = try await pool.query(PostgresQuery(unsafeSQL: """
            SELECT log_id, tree_size, root_hash, chain_hash, origin, key_name, key_id, verifier_key, note,
                   to_char(signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                   ARRAY(SELECT c.line FROM ledger.checkpoint_cosignatures c
                          WHERE c.log_id = k.log_id AND c.tree_size = k.tree_size ORDER BY c.recorded_at, c.witness_name, c.key_id)
              FROM ledger.checkpoints k WHERE log_id = $1 AND \(condition) LIMIT 1
            """, binds: binds), logger: logger)
        for try await (log, size, root, chain, origin, keyName, keyID, verifier, note, signedAt, cosignatures)
            in rows.decode((String, Int64, Data, Data, String, String, Int64, String, String, String, [String]).self) {
            return StoredCheckpoint(log: log, treeSize: UInt64(size), rootHash: Array(root), chainHash: Array(chain), origin: origin,
                                    keyName: keyName, keyID: UInt32(keyID), verifierKey: verifier, note: note, signedAt: signedAt,
                                    cosignatures: cosignatures)
        }
        return nil
    }

    /// What ``sign(log:key:progress:)`` did.
    public struct Signed: Sendable {
        /// The checkpoint now newest for the log.
        public var checkpoint: StoredCheckpoint
        /// The checkpoint it had to be consistent with (nil for a log's first).
        public var previous: StoredCheckpoint?
        /// False when the log had not grown since its last checkpoint, which is returned unchanged.
        public var isNew: Bool
        /// The positions whose records, leaf hashes and chain links were recomputed before signing.
        public var verified: ClosedRange<Int64>?
    }

    /// Builds the tree of `log` to its head and signs a checkpoint of it, after checking that
    /// the records added since the last checkpoint hash and chain correctly and that the new tree
    /// extends the last checkpoint's (its root at the old size is the signed one, and the RFC 9162
    /// consistency proof between them verifies). Refuses otherwise, and signs nothing.
    ///
    /// `progress` receives each step as it starts, and the tree build's progress in leaves.
    /// `upTo` signs the tree of that many leaves instead of the head (benchmarks use it to leave
    /// a stretch of the log after the checkpoint; it cannot be smaller than the last checkpoint).
    public func sign(log: String, key: NoteSigningKey, upTo: UInt64? = nil,
                     progress: @Sendable (SigningProgress) -> Void = { _ in }) async throws -> Signed {
        let tree = MerkleStore(pool: pool, logger: logger)
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        guard head.position > 0 else {
            throw LedgerError(.checkpointRefused, "log \(log) is empty: there is nothing to sign", hint: "Append events first.")
        }
        let target = min(upTo ?? UInt64(head.position), UInt64(head.position))
        progress(.step("building the Merkle tree of log \(log) to \(target == UInt64(head.position) ? "its head, " : "")position \(target)"))
        _ = try await tree.extend(log: log, upTo: target) { built, target in progress(.tree(built: built, of: target)) }
        let size = target
        let previous = try await latest(log: log)
        if let previous, previous.treeSize == size {
            return Signed(checkpoint: previous, previous: previous, isNew: false, verified: nil)
        }
        if let previous, previous.treeSize > size {
            throw LedgerError(.checkpointRefused, "log \(log) already has a checkpoint of \(previous.treeSize) leaves; checkpoints only grow")
        }
        let first = Int64(previous?.treeSize ?? 0) + 1
        progress(.step("checking the records, leaf hashes and chain links of positions \(first) to \(size)"))
        let check = try await ChainCheck.run(log: log, from: first, through: Int64(size), pool: pool, logger: logger)
        if let problem = check.problem {
            throw LedgerError(.integrityFailure, "not signing log \(log): \(problem)", hint: "Run `consent-ledger verify --log \(log)`.")
        }
        let root = try await tree.root(log: log, size: size)
        if let previous {
            try await checkExtends(previous, log: log, size: size, root: root, tree: tree)
        }
        let chainHash = try await chainHash(log: log, position: Int64(size))
        let checkpoint = Checkpoint(origin: Checkpoint.origin(keyName: key.name, log: log), size: size, rootHash: root)
        let note = try SignedNote.sign(body: checkpoint.body, with: key)
        let verifier = key.verifierKey
        try note.verify(with: verifier)
        progress(.step("signing the tree of \(size) leaves with \(verifier.name) (key \(NoteKeyID.hex(verifier.keyID)))"))
        let rows = try await pool.query("""
            SELECT to_char(ledger.record_checkpoint(\(log), \(Int64(size)), \(Data(root)), \(Data(chainHash)), \(checkpoint.origin),
                   \(verifier.name), \(Int64(verifier.keyID)), \(verifier.text), \(note.text)) AT TIME ZONE 'UTC',
                   'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            """, logger: logger)
        var signedAt = ""
        for try await value in rows.decode(String.self) { signedAt = value }
        let stored = StoredCheckpoint(log: log, treeSize: size, rootHash: root, chainHash: chainHash, origin: checkpoint.origin,
                                      keyName: verifier.name, keyID: verifier.keyID, verifierKey: verifier.text, note: note.text,
                                      signedAt: signedAt)
        return Signed(checkpoint: stored, previous: previous, isNew: true, verified: first...Int64(size))
    }

    /// Refuses unless the tree of `size` leaves (root `root`) extends `previous`.
    private func checkExtends(_ previous: StoredCheckpoint, log: String, size: UInt64, root: [UInt8], tree: MerkleStore) async throws {
        let oldRoot = try await tree.root(log: log, size: previous.treeSize)
        guard oldRoot == previous.rootHash else {
            throw LedgerError(.checkpointRefused,
                              "not signing log \(log): its tree of \(previous.treeSize) leaves now has root \(LedgerHash.hex(oldRoot)), "
                                  + "but the checkpoint signed at \(previous.signedAt) says \(LedgerHash.hex(previous.rootHash)): "
                                  + "the log was changed before that size",
                              hint: "Run `consent-ledger verify --log \(log)` and investigate before signing anything.")
        }
        let proof = try await tree.consistencyProof(log: log, from: previous.treeSize, to: size)
        do {
            try MerkleProofVerifier.verifyConsistency(size1: previous.treeSize, size2: size, root1: previous.rootHash, root2: root, proof: proof)
        } catch {
            throw LedgerError(.checkpointRefused, "not signing log \(log): the tree of \(size) leaves is not consistent with the checkpoint "
                                  + "of \(previous.treeSize) (\(error.reason))")
        }
        let chain = try await chainHash(log: log, position: Int64(previous.treeSize))
        guard chain == previous.chainHash else {
            throw LedgerError(.checkpointRefused, "not signing log \(log): the chain hash at position \(previous.treeSize) is not the one "
                                  + "recorded with its checkpoint")
        }
    }

    /// The log's chain hash at `position`.
    func chainHash(log: String, position: Int64) async throws -> [UInt8] {
        let rows = try await pool.query(
            "SELECT chain_hash FROM ledger.events WHERE log_id = \(log) AND position = \(position)", logger: logger)
        for try await hash in rows.decode(Data.self) { return Array(hash) }
        throw LedgerError(.integrityFailure, "log \(log) has no event at position \(position)")
    }
}

/// What ``CheckpointStore/sign(log:key:upTo:progress:)`` is doing.
public enum SigningProgress: Sendable, Equatable, CustomStringConvertible {
    /// A step starts (a sentence).
    case step(String)
    /// The Merkle tree is built to `built` of `of` leaves.
    case tree(built: UInt64, of: UInt64)

    /// The step's sentence, or `tree built to N of M leaves`.
    public var description: String {
        switch self {
        case .step(let text): return text
        case .tree(let built, let of): return "tree built to \(built) of \(of) leaves"
        }
    }
}
