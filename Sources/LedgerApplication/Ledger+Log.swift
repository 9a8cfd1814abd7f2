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
    /// order, exactly as hashed; `log-not-found` first when there is no such log.
    /// - Parameter reveal: open personal fields (or mark them erased); needs the owner's pool,
    ///   the only role that may read subject keys.
    public func events(log: String, after: Int64 = 0, limit: Int64? = nil, stream: String? = nil, reveal: Bool = false,
                       _ body: (StoredEvent, [String: PersonalDataView.KeyState]) async throws -> Void) async throws {
        let store = EventStore(pool: reveal ? pools.administrator : pools.auditor, logger: logger)
        _ = try await store.requireHead(log: log)
        let keys = reveal ? try await store.keyStates(log: log) : [:]
        try await store.read(log: log, after: after, limit: limit, stream: stream) { event in try await body(event, keys) }
    }

    /// Recomputes every hash and link of `log` in Swift and then checks its Merkle tree and
    /// signed checkpoints (the tree only when the chain passed).
    public func verify(log: String, progress: (Int64, Int64) -> Void = { _, _ in },
                       treeNote: @Sendable (String) -> Void = { _ in }) async throws -> (chain: LogVerifier.Report, tree: TreeVerifier.Report?) {
        let chain = try await LogVerifier(store: EventStore(pool: pools.auditor, logger: logger))
            .verify(log: log, progressEvery: 5_000, progress: progress)
        guard chain.passed else { return (chain, nil) }
        return (chain, try await TreeVerifier(pool: pools.auditor, logger: logger).verify(log: log, progress: treeNote))
    }

    /// The schema version the database is at (nil before the first migration); answers within
    /// about `limit` whatever the database does, failing with `database-unavailable`.
    public func schemaVersion(within limit: Duration) async throws -> Int? {
        let rows = try await pools.application.waiting(at: limit).query("SELECT max(version) FROM ledger.schema_version", logger: logger)
        var version: Int?
        for try await value in rows.decode(Int?.self) { version = value }
        return version
    }
}
