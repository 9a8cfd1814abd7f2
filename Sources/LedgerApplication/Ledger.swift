import LedgerCore
import LedgerPostgres
import Logging

/// The ledger's operations, in one place, for the command line, the HTTP API and the console
/// alike: append, read, state, replay, explain, find subjects, the three reports, proofs and
/// checkpoints, erasure and API keys (docs/architecture.md, "Life of an event").
///
/// A `Ledger` owns one pool per database role and picks the role each operation needs, so no
/// caller chooses a role or builds a store: appends and API-key checks run as the application
/// role, reads and reports as the auditor, erasure, keys and signing as the owner. Every error it
/// throws is a ``LedgerError`` (the pools translate database errors; decision 0020).
///
/// ```swift
/// try await Ledger.with(target) { ledger in
///     let result = try await ledger.append(log: "acme", events: inputs)
///     let state = try await ledger.state(log: "acme", subject: "p_7f3a9c", asOf: .head)
/// }
/// ```
public struct Ledger: Sendable {
    /// The pools, one per role.
    public let pools: RolePools
    /// Where operations log.
    public let logger: Logger
    /// What the migration run by ``with(_:migrating:keepRunning:logger:waitLimit:progress:_:)`` did
    /// (nil when it was not asked to migrate).
    public let migration: Migrator.Outcome?
    /// Concurrent single-event appends share transactions here (with or without an idempotency key).
    let groupCommit: GroupCommit
    /// Verified API keys, while ``followKeyChanges()`` runs (otherwise it keeps nothing).
    public let keyCache: APIKeyCache
    /// The anomalies projection's folds, while ``followFolds()`` runs (otherwise the findings'
    /// followers read every few seconds).
    public let folds: FoldSignal

    /// A ledger over running pools.
    public init(pools: RolePools, migration: Migrator.Outcome? = nil, logger: Logger = Logger(label: "consent-ledger")) {
        self.init(pools: pools, migration: migration, logger: logger, keyCache: APIKeyCache(), folds: FoldSignal())
    }

    private init(pools: RolePools, migration: Migrator.Outcome?, logger: Logger, keyCache: APIKeyCache, folds: FoldSignal) {
        self.pools = pools
        self.migration = migration
        self.logger = logger
        self.keyCache = keyCache
        self.folds = folds
        self.groupCommit = GroupCommit(store: EventStore(pool: pools.application, logger: logger))
    }

    /// The same ledger, each pool waiting at most `limit` for a connection before it asks whether
    /// the database is up (the server's bound on a request's wait; decision 0020) and, with
    /// `busyAtMost`, at most that long in all while the database is up but every connection is in
    /// use (`database-busy`; decision 0055). It has a group commit of its own: make it once, where
    /// the server is built. It shares this one's key cache and fold signal.
    public func waiting(at limit: Duration, busyAtMost: Duration? = nil) -> Ledger {
        Ledger(pools: RolePools(application: pools.application.waiting(at: limit, busyAtMost: busyAtMost),
                                auditor: pools.auditor.waiting(at: limit, busyAtMost: busyAtMost),
                                administrator: pools.administrator.waiting(at: limit, busyAtMost: busyAtMost)),
               migration: migration, logger: logger, keyCache: keyCache, folds: folds)
    }

    /// Opens the database at `target` (starting the embedded cluster when it is not running, as
    /// ``LedgerDatabase/with(_:role:keepRunning:logger:waitLimit:progress:_:)`` does), runs `body`
    /// with a ledger over one pool per role, and closes it all afterwards.
    ///
    /// - Parameter migrating: create or update the schema first, as the owner, before the
    ///   application and auditor roles (which the migration creates) are connected; the outcome is
    ///   the ledger's ``migration``.
    public static func with<Result: Sendable>(
        _ target: DatabaseTarget,
        migrating: Bool = false,
        keepRunning: Bool = false,
        logger: Logger = Logger(label: "consent-ledger"),
        waitLimit: Duration = LedgerPool.commandWaitLimit,
        progress: @Sendable (String) -> Void = { _ in },
        _ body: (Ledger) async throws -> Result
    ) async throws -> Result {
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: keepRunning, logger: logger, waitLimit: waitLimit,
                                      progress: progress) { administrator in
            let migration = migrating ? try await (try Migrator(pool: administrator, logger: logger)).migrate() : nil
            return try await LedgerDatabase.with(target, role: .application, keepRunning: true, logger: logger, waitLimit: waitLimit) { application in
                try await LedgerDatabase.with(target, role: .auditor, keepRunning: true, logger: logger, waitLimit: waitLimit) { auditor in
                    try await body(Ledger(pools: RolePools(application: application, auditor: auditor, administrator: administrator),
                                          migration: migration, logger: logger))
                }
            }
        }
    }
}

/// One ``LedgerPool`` per database role (docs/architecture.md, "pool").
public struct RolePools: Sendable {
    /// Appends, reads of the log, API-key checks: may SELECT and call `append_events`, nothing else.
    public let application: LedgerPool
    /// Reads, projections, reports: read-only.
    public let auditor: LedgerPool
    /// The owner: migrations, projections' folds, erasure (subject keys), API keys, signing.
    public let administrator: LedgerPool

    /// Pools from their parts.
    public init(application: LedgerPool, auditor: LedgerPool, administrator: LedgerPool) {
        self.application = application
        self.auditor = auditor
        self.administrator = administrator
    }
}
