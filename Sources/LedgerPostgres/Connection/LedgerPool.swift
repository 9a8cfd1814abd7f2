import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// One database role's connections, and the only way LedgerPostgres runs SQL.
///
/// Every query goes through here, which gives three guarantees the rest of the code relies on:
/// - **A bounded wait when the database is down.** After ``waitLimit`` without a connection, a
///   plain connection attempt (``DatabaseProbe``) tells "busy" from "down": busy, the call keeps
///   waiting, up to ``busyLimit`` when there is one (then `database-busy`); down, it throws
///   `database-unavailable` (the server answers 503 with `Retry-After` to both) instead of waiting
///   the minute PostgresNIO's pool takes to give up on a server that is down.
/// - **No leaked connection.** A query's rows are read while its connection is leased, and the
///   lease ends when the call does, whatever the query's outcome. (`PostgresClient.query` can keep
///   a connection for ever when a query fails after its row description arrived: see
///   docs/decisions/0020-one-door-to-the-database.md.)
/// - **One error boundary.** Every PostgreSQL and pool error is translated here, by
///   ``DatabaseErrors``, into a ``LedgerError`` that says what to do.
///
/// ```swift
/// let pool = LedgerPool(client, waitLimit: .seconds(2))
/// for try await (log, head) in try await pool.query("SELECT log_id, head_position FROM ledger.logs").decode((String, Int64).self) { … }
/// try await pool.transaction { connection in … }
/// ```
public struct LedgerPool: Sendable {
    /// PostgresNIO's pool underneath (its owner runs `run()`; tests reach past the boundary with it).
    public let client: PostgresClient
    /// How long a call waits for a connection before asking whether the database accepts
    /// connections at all: if not, the call fails with `database-unavailable`; if so, it waits on.
    public let waitLimit: Duration
    /// How long a call waits in all for a connection while the database is up but every connection
    /// is in use, before it fails with `database-busy` (nil: as long as it takes). Checked every
    /// ``waitLimit``, so the wait ends at the first check past it (decision 0055).
    public let busyLimit: Duration?
    /// Where queries log.
    public let logger: Logger
    /// Tells a busy database from an unreachable one (nil: every wait over the limit fails).
    let probe: DatabaseProbe?
    /// Which function this pool's role stores a batch through, once asked (``AppendFunction``; shared by its copies).
    let appendFunctions: AppendFunctionCache
    /// Where the pool connects, when it was told (for a connection of one's own beside the pool).
    public var settings: ConnectionSettings? { probe?.settings }

    /// The wait a command-line run accepts: long enough for a cluster that is still starting.
    public static let commandWaitLimit: Duration = .seconds(30)

    /// A pool over a running `PostgresClient` (one whose `run()` is being awaited); `settings`
    /// (the client's) let a wait over the limit check whether the database is up at all.
    public init(_ client: PostgresClient, settings: ConnectionSettings? = nil, waitLimit: Duration = LedgerPool.commandWaitLimit,
                logger: Logger = Logger(label: "consent-ledger.sql")) {
        self.init(client, probe: settings.map { DatabaseProbe(settings: $0, logger: logger) }, waitLimit: waitLimit, busyLimit: nil,
                  appendFunctions: AppendFunctionCache(), logger: logger)
    }

    private init(_ client: PostgresClient, probe: DatabaseProbe?, waitLimit: Duration, busyLimit: Duration?,
                 appendFunctions: AppendFunctionCache, logger: Logger) {
        self.client = client
        self.appendFunctions = appendFunctions
        self.probe = probe
        self.waitLimit = waitLimit
        self.busyLimit = busyLimit
        self.logger = logger
    }

    /// The same connections with another wait limit and, when given, a bound on the wait for a
    /// busy pool (``busyLimit``).
    public func waiting(at most: Duration, busyAtMost: Duration? = nil) -> LedgerPool {
        LedgerPool(client, probe: probe, waitLimit: most, busyLimit: busyAtMost ?? busyLimit, appendFunctions: appendFunctions, logger: logger)
    }

    /// The database role the pool connects as, for messages ("the" pool when it was not told).
    var roleName: String { settings?.username ?? "the" }

    /// Runs `body` on one connection, leased for its duration; errors come out as ``LedgerError``s.
    public func withConnection<Result>(isolation: isolated (any Actor)? = #isolation,
                                       _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        let limit = waitLimit
        let busyLimit = self.busyLimit
        let role = roleName
        var keepWaiting: (@Sendable () async -> Bool)?
        if let probe { keepWaiting = { await probe.reachable() } }
        let lease = try await ConnectionLease.take(from: client, within: limit, busyLimit: busyLimit, keepWaiting: keepWaiting, timeout: {
            DatabaseErrors.unavailable("the database does not accept connections (no connection within \(Self.seconds(limit)))")
        }, busy: {
            DatabaseErrors.busy("every connection of the \(role) pool is in use: none was free within \(Self.seconds(busyLimit ?? limit))")
        })
        defer { lease.giveBack() }
        do {
            return try await body(lease.connection)
        } catch {
            throw DatabaseErrors.translateAny(error)
        }
    }

    /// Runs `query` and returns all its rows, read before the connection goes back.
    @discardableResult
    public func query(_ query: PostgresQuery, logger: Logger? = nil) async throws -> FetchedRows {
        let logger = logger ?? self.logger
        return try await withConnection { connection in
            var rows: [PostgresRow] = []
            for try await row in try await connection.watchedQuery(query, logger: logger) { rows.append(row) }
            return FetchedRows(rows)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<Result>(isolation: isolated (any Actor)? = #isolation,
                                    _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        let logger = self.logger
        return try await withConnection { connection in
            try await connection.inTransaction(logger: logger, body)
        }
    }

    /// Runs `body` in a transaction that is always rolled back (temporary tables, time travel).
    public func rolledBackTransaction<Result>(isolation: isolated (any Actor)? = #isolation,
                                              _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        let logger = self.logger
        return try await withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger, body)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
