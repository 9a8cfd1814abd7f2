import LedgerCore
import LedgerPostgres

extension Ledger.Verification {
    /// One sentence: what was verified, or the first thing that failed.
    public var summary: String {
        if let checkpointProblem { return "the checkpoint relied on failed: \(checkpointProblem)" }
        if let problem = chain.problem { return "failed after \(chain.startPosition + chain.verifiedCount) good events: \(problem)" }
        if let problem = chain.tree?.problem { return "the Merkle tree failed: \(problem)" }
        if let checkpoints, !checkpoints.passed { return "a signed checkpoint failed: \(checkpoints.problem ?? "")" }
        if let checkpoint {
            return "verified the checkpoint of \(checkpoint.treeSize) events (signature, root, chain hash) and re-hashed the "
                + "\(chain.verifiedCount) events after it; positions 1 to \(checkpoint.treeSize) were not read (they rest on the "
                + "checkpoints' signing and the last full verify)"
        }
        return "verified \(chain.verifiedCount) events" + (checkpoints.map { ", the Merkle tree and \($0.checkpointsChecked) signed checkpoints" } ?? "")
    }
}

extension Ledger {
    /// Verifies `log` (``verify(log:sinceCheckpoint:progress:treeNote:)``), then records what was
    /// found and who ran it (`by`: an API key id, or `cli/<user>`) in `ledger.verifications`, where
    /// the console's overview shows the newest, when the application pool's role may (not the
    /// auditor's: ``Verification/recorded``).
    public func verifyAndRecord(log: String, sinceCheckpoint: Bool, by: String,
                                progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in },
                                treeNote: @Sendable (String) -> Void = { _ in }) async throws -> Verification {
        var verification = try await verify(log: log, sinceCheckpoint: sinceCheckpoint, progress: progress, treeNote: treeNote)
        let record = VerificationRecord(scope: sinceCheckpoint ? "since-checkpoint" : "full", passed: verification.passed,
                                        eventsChecked: verification.chain.verifiedCount, headPosition: verification.chain.headPosition,
                                        summary: verification.summary, verifiedBy: by)
        verification.recorded = try await VerificationRecord.record(record, log: log, pool: pools.application, logger: logger)
        return verification
    }
}
