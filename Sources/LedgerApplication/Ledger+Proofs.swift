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

    /// The position of event `eventId` of `log`, for a proof asked by event id.
    public func position(log: String, eventId: String) async throws -> Int64 {
        try await ProofMaker(pool: pools.auditor, logger: logger).position(log: log, eventId: eventId)
    }

    /// The newest signed checkpoint of `log`; ``LedgerError/Code/checkpointNotFound`` when none
    /// was signed yet, ``LedgerError/Code/logNotFound`` when there is no such log.
    public func latestCheckpoint(log: String) async throws -> StoredCheckpoint {
        let store = CheckpointStore(pool: pools.auditor, logger: logger)
        if let found = try await store.latest(log: log) { return found }
        _ = try await requireHead(log: log)
        throw LedgerError(.checkpointNotFound, "log \(log) has no signed checkpoint yet",
                          hint: "Sign one: consent-ledger checkpoint --log \(log), or run serve --checkpoint-every.")
    }

    /// Stores the cosignatures of `witnesses` that `note` carries on a checkpoint of `log`
    /// (``CheckpointStore/addCosignatures(log:note:witnesses:)``), as the application role.
    public func addCosignatures(log: String, note: String, witnesses: [NoteVerifierKey]) async throws -> CosignaturesAdded {
        try await CheckpointStore(pool: pools.application, logger: logger).addCosignatures(log: log, note: note, witnesses: witnesses)
    }

    /// A C2SP tlog-tiles hash tile or entry bundle of `log` (``TileStore``).
    public func tile(log: String, _ tile: TileAddress) async throws -> [UInt8] {
        try await TileStore(pool: pools.auditor, logger: logger).read(log: log, tile: tile)
    }
}

extension Ledger {
    /// What ``signGrownLogs(key:)`` did for one log.
    public enum CheckpointOutcome: Sendable {
        /// A new checkpoint was signed.
        case signed(CheckpointStore.Signed)
        /// The log could not be signed: its records no longer check, or its tree does not extend its last checkpoint.
        case refused(log: String, LedgerError)
    }

    /// One pass: signs a checkpoint of every log whose head is past its newest checkpoint, and
    /// leaves the others alone. A log that cannot be signed does not stop the others.
    public func signGrownLogs(key: NoteSigningKey) async throws -> [CheckpointOutcome] {
        var outcomes: [CheckpointOutcome] = []
        let checkpoints = CheckpointStore(pool: pools.auditor, logger: logger)
        for log in try await logs() where log.position > 0 {
            guard UInt64(log.position) > (try await checkpoints.latest(log: log.log)?.treeSize ?? 0) else { continue }
            do {
                outcomes.append(.signed(try await signCheckpoint(log: log.log, key: key)))
            } catch let error as LedgerError where error.code != .databaseUnavailable {
                outcomes.append(.refused(log: log.log, error))
            }
        }
        return outcomes
    }

    /// Runs ``signGrownLogs(key:)`` now and then every `interval`, until the task is cancelled:
    /// checkpoints appear by themselves while `serve --checkpoint-every` or `project run --follow
    /// --checkpoint-every` runs, and only when there is something new to sign. Each checkpoint
    /// signed is told through `note`; a log that cannot be signed, or a pass that failed (the
    /// database away), is told once, each time its problem changes.
    public func keepCheckpoints(every interval: Duration, key: NoteSigningKey, note: @escaping @Sendable (String) -> Void) async throws {
        var problems: [String: String] = [:]
        func tell(_ subject: String, _ message: String?) {
            if let message, problems[subject] != message { note("checkpoint: " + message) }
            problems[subject] = message
        }
        while true {
            try Task.checkCancellation()
            do {
                for outcome in try await signGrownLogs(key: key) {
                    switch outcome {
                    case .signed(let result):
                        tell(result.checkpoint.log, nil)
                        note("checkpoint: signed log \(result.checkpoint.log) at tree size \(result.checkpoint.treeSize)"
                             + (result.previous.map { ", extending \($0.treeSize)" } ?? ", its first"))
                    case .refused(let log, let error):
                        tell(log, "not signing log \(log): \(error.message)")
                    }
                }
                tell("", nil)
            } catch let error as LedgerError {
                tell("", "no pass this time (the next one tries again): \(error.message)")
            }
            try await Task.sleep(for: interval)
        }
    }
}
