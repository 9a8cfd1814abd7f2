import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Builds the Merkle tree of `log` to its head and signs a checkpoint of it with `key`, as the
    /// owner (the only role that extends the stored tree).
    public func signCheckpoint(log: String, key: NoteSigningKey,
                               progress: @Sendable (SigningProgress) -> Void = { _ in }) async throws -> CheckpointStore.Signed {
        try await CheckpointStore(pool: pools.administrator, logger: logger).sign(log: log, key: key, progress: progress)
    }

    /// A self-contained inclusion proof of `position`, against the checkpoint of `checkpointSize`
    /// (nil: the latest covering it), with a consistency proof from `since` when given.
    public func proveInclusion(log: String, position: Int64, checkpointSize: Int64? = nil, since: Int64? = nil) async throws -> ProofBundle {
        try await ProofMaker(pool: pools.auditor, logger: logger).inclusion(log: log, position: position, checkpointSize: checkpointSize, since: since)
    }

    /// A self-contained consistency proof between the checkpoints of `from` and `to` (nil: the latest).
    public func proveConsistency(log: String, from: Int64, to: Int64? = nil) async throws -> ProofBundle {
        try await ProofMaker(pool: pools.auditor, logger: logger).consistency(log: log, from: from, to: to)
    }
}
