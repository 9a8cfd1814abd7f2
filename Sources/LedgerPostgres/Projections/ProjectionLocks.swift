import Logging
import PostgresNIO

/// The advisory locks that keep projection work from colliding across processes.
///
/// - The *fold lock* (transaction-scoped) is held by whoever advances a projection's live tables:
///   one catch-up step at a time, or a rebuild's final swap. A runner that cannot take it at once
///   leaves the projection to the process that holds it.
/// - The *rebuild lock* (session-scoped) is held for a whole rebuild, so two rebuilds of one
///   projection never share its build schema.
enum ProjectionLocks {
    /// Takes the fold lock of `projection` if it is free; false when another process holds it.
    static func tryFoldLock(_ projection: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await bool("SELECT pg_try_advisory_xact_lock(hashtext('consent-ledger fold'), hashtext(\(projection)))",
                       on: connection, logger: logger)
    }

    /// Waits for the fold lock of `projection`.
    static func foldLock(_ projection: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.watchedQuery("SELECT pg_advisory_xact_lock(hashtext('consent-ledger fold'), hashtext(\(projection)))",
                                   logger: logger)
    }

    /// Takes the rebuild lock of `projection` for the session if it is free.
    static func tryRebuildLock(_ projection: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await bool("SELECT pg_try_advisory_lock(hashtext('consent-ledger rebuild'), hashtext(\(projection)))",
                       on: connection, logger: logger)
    }

    /// Releases the rebuild lock of `projection`.
    static func releaseRebuildLock(_ projection: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.watchedQuery("SELECT pg_advisory_unlock(hashtext('consent-ledger rebuild'), hashtext(\(projection)))",
                                   logger: logger)
    }

    private static func bool(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        for try await value in try await connection.watchedQuery(query, logger: logger).decode(Bool.self) { return value }
        return false
    }
}
