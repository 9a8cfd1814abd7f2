import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Opens the ledger's database for a piece of work and closes it afterwards.
///
/// On the embedded target it starts the cluster when it is not running (and stops it again at the
/// end when it started it, unless told to keep it), and creates the ledger database on first use.
/// Before handing out a pool it makes one plain connection, which fails at once with the server's
/// real error (a pool's first query would instead wait for its timeout).
///
/// ```swift
/// try await LedgerDatabase.with(target, role: .application) { client in
///     let store = EventStore(client: client)
///     _ = try await store.head(log: "acme")
/// }
/// ```
public enum LedgerDatabase {
    /// Runs `body` with a running `PostgresClient` for `role`.
    ///
    /// - Parameters:
    ///   - keepRunning: on the embedded target, leave a cluster started here running afterwards.
    ///   - progress: receives one-line notes ("starting the embedded database …").
    public static func with<Result: Sendable>(
        _ target: DatabaseTarget,
        role: DatabaseTarget.Role,
        keepRunning: Bool = false,
        logger: Logger = Logger(label: "consent-ledger"),
        progress: @Sendable (String) -> Void = { _ in },
        _ body: (PostgresClient) async throws -> Result
    ) async throws -> Result {
        var startedHere = false
        if case .embedded(let cluster) = target {
            if case .running = try cluster.status() {} else {
                progress("starting the embedded PostgreSQL in \(cluster.directory.path)")
                startedHere = try cluster.start()
            }
        }
        do {
            if case .embedded = target { try await createLedgerDatabaseIfMissing(target, logger: logger) }
            let settings = target.settings(role: role)
            try await preflight(settings, logger: logger)
            let result = try await withRunningClient(settings, logger: logger, body)
            if startedHere, !keepRunning, case .embedded(let cluster) = target { try cluster.stop() }
            return result
        } catch {
            if startedHere, !keepRunning, case .embedded(let cluster) = target { try? cluster.stop() }
            throw error
        }
    }

    /// Runs `body` with a pool on `settings`; the pool runs in a child task and ends with `body`.
    public static func withRunningClient<Result: Sendable>(
        _ settings: ConnectionSettings,
        logger: Logger = Logger(label: "consent-ledger"),
        _ body: (PostgresClient) async throws -> Result
    ) async throws -> Result {
        // The pool logs its own background chatter (a lease racing run()'s start, reconnects);
        // errors that matter reach the caller as thrown errors, so keep the background quiet.
        var background = logger
        background.logLevel = .error
        let client = PostgresClient(configuration: settings.clientConfiguration, backgroundLogger: background)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                return try await body(client)
            } catch let error as PSQLError {
                throw DatabaseErrors.translate(error)
            }
        }
    }

    /// Connects once, and explains a refusal in terms of what to do.
    public static func preflight(_ settings: ConnectionSettings, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(configuration: try settings.connectionConfiguration(), id: 0, logger: logger)
            try await connection.close()
        } catch let error as PSQLError {
            throw DatabaseErrors.translateConnect(error, settings: settings)
        }
    }

    /// Creates the embedded cluster's ledger database if it does not exist yet.
    static func createLedgerDatabaseIfMissing(_ target: DatabaseTarget, logger: Logger) async throws {
        let admin = target.settings(role: .administrator, database: "postgres")
        try await preflight(admin, logger: logger)
        let connection = try await PostgresConnection.connect(configuration: try admin.connectionConfiguration(), id: 1, logger: logger)
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query("SELECT 1 FROM pg_database WHERE datname = \(LocalCluster.databaseName)", logger: logger)
        var exists = false
        for try await _ in rows { exists = true }
        if !exists {
            do {
                _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(LocalCluster.databaseName)"), logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                // Created meanwhile by another process: fine.
            }
        }
    }
}
