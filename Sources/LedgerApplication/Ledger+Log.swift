import Foundation
import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Every log's head.
    public func logs() async throws -> [LogHead] {
        try await EventStore(pool: pools.auditor, logger: logger).logs()
    }

    /// The head of `log`, or `log-not-found` naming the logs there are.
    public func requireHead(log: String) async throws -> LogHead {
        try await EventStore(pool: pools.auditor, logger: logger).requireHead(log: log)
    }

    /// The last position of `log` recorded at or before `time` (the ledger's clock).
    public func position(log: String, recordedBy time: Date) async throws -> Int64 {
        try await EventStore(pool: pools.auditor, logger: logger).position(log: log, recordedBy: time)
    }

    /// Streams the records of `log` after `after` (at most `limit`, only `stream` when given), in
    /// order, exactly as hashed, up to the head as it was when the call began; `log-not-found`
    /// first when there is no such log. The records are read a page at a time and `body` runs with
    /// no connection held, so a slow consumer (a client that stops reading) holds none (decision 0055).
    /// - Parameter reveal: open personal fields (or mark them erased); needs the owner's pool,
    ///   the only role that may read subject keys.
    public func events(log: String, after: Int64 = 0, limit: Int64? = nil, stream: String? = nil, reveal: Bool = false,
                       _ body: (StoredEvent, [String: PersonalDataView.KeyState]) async throws -> Void) async throws {
        let store = EventStore(pool: reveal ? pools.administrator : pools.auditor, logger: logger)
        let head = try await store.requireHead(log: log)
        let keys = reveal ? try await store.keyStates(log: log) : [:]
        try await store.read(log: log, after: after, limit: limit, stream: stream, through: head.position) { event in
            try await body(event, keys)
        }
    }

    /// What ``verify(log:sinceCheckpoint:progress:treeNote:)`` found.
    public struct Verification: Sendable {
        /// The events re-hashed and compared with their columns (all of them, or those after the
        /// checkpoint), and the stored Merkle tree (when every event was re-hashed).
        public var chain: LogVerifier.Report
        /// Every signed checkpoint; nil when the events or the tree failed, or only the newest
        /// checkpoint was checked.
        public var checkpoints: CheckpointVerifier.Report?
        /// With `sinceCheckpoint`: the checkpoint relied on (nil when the log has none).
        public var checkpoint: StoredCheckpoint?
        /// What no longer holds of that checkpoint (signature, root, chain hash); nil when it holds.
        public var checkpointProblem: String?
        /// Whether ``Ledger/verifyAndRecord(log:sinceCheckpoint:by:progress:treeNote:)`` stored
        /// what was found in `ledger.verifications` (false when its role only reads).
        public var recorded = false

        /// True when everything checked passed.
        public var passed: Bool { chain.passed && checkpointProblem == nil && (checkpoints?.passed ?? true) }
    }

    /// Recomputes every hash and link of `log` in Swift, compares every event's columns with its
    /// record and every stored Merkle node with the leaves, then checks every signed checkpoint
    /// (only when all that passed). With `sinceCheckpoint`, checks the newest signed checkpoint instead
    /// (signature, root against the stored tree, chain hash against the log) and re-hashes only
    /// the events after it; with no checkpoint yet, that is the whole log.
    public func verify(log: String, sinceCheckpoint: Bool = false,
                       progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in },
                       treeNote: @Sendable (String) -> Void = { _ in }) async throws -> Verification {
        let verifier = LogVerifier(store: EventStore(pool: pools.auditor, logger: logger))
        guard sinceCheckpoint else {
            let chain = try await verifier.verify(log: log, progress: progress)
            guard chain.passed else { return Verification(chain: chain) }
            return Verification(chain: chain, checkpoints: try await CheckpointVerifier(pool: pools.auditor, logger: logger)
                .verify(log: log, progress: treeNote))
        }
        let head = try await requireHead(log: log)
        guard let checkpoint = try await CheckpointStore(pool: pools.auditor, logger: logger).latest(log: log) else {
            return Verification(chain: try await verifier.verify(log: log, progress: progress))
        }
        treeNote("checking the checkpoint of \(checkpoint.treeSize) leaves (signature, root, chain hash)")
        if let problem = try await checkpoint.problems(pool: pools.auditor, logger: logger).first {
            let unchecked = LogVerifier.Report(log: log, verifiedCount: 0, headPosition: head.position, lastChainHash: [], nonCanonicalCount: 0,
                                               problem: nil, startPosition: Int64(checkpoint.treeSize))
            return Verification(chain: unchecked, checkpoint: checkpoint, checkpointProblem: problem)
        }
        let chain = try await verifier.verify(log: log, after: Int64(checkpoint.treeSize), startChainHash: checkpoint.chainHash,
                                              progress: progress)
        return Verification(chain: chain, checkpoint: checkpoint)
    }

    /// The schema version the database is at (nil before the first migration), read once every
    /// role's pool has handed out a connection: what `/ready` answers. Answers within about
    /// `limit` whatever the database does, failing with `database-unavailable` when it does not
    /// accept connections and `database-busy` (naming the role) when a pool has no connection
    /// free within `limit`: a starved pool is not ready (decision 0055).
    public func schemaVersion(within limit: Duration) async throws -> Int? {
        async let auditor: Void = answers(pools.auditor.waiting(at: limit, busyAtMost: limit))
        async let administrator: Void = answers(pools.administrator.waiting(at: limit, busyAtMost: limit))
        let rows = try await pools.application.waiting(at: limit, busyAtMost: limit)
            .query("SELECT max(version) FROM ledger.schema_version", logger: logger)
        try await auditor
        try await administrator
        var version: Int?
        for try await value in rows.decode(Int?.self) { version = value }
        return version
    }

    /// Returns once `pool` has run a query: a connection was free within its wait.
    private func answers(_ pool: LedgerPool) async throws {
        try await pool.query("SELECT 1", logger: logger)
    }
}
