import LedgerPostgres
import Logging
import PostgresNIO

/// Statements the benchmarks run themselves: on one pinned connection, for those that need session
/// state (settings) or that time single statements; or on a pool, for
/// setup between measurements.
enum BenchSQL {
    /// Runs one statement and reads every row it returns; returns the wall time in seconds.
    @discardableResult
    static func execute(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Double {
        let watch = Stopwatch()
        for try await _ in try await connection.query(query, logger: logger) {}
        return watch.elapsedSeconds
    }

    /// Runs one statement given as text.
    @discardableResult
    static func execute(_ sql: String, on connection: PostgresConnection, logger: Logger) async throws -> Double {
        try await execute(PostgresQuery(unsafeSQL: sql), on: connection, logger: logger)
    }

    /// The first column of every row, as text (EXPLAIN's lines, settings).
    static func texts(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var values: [String] = []
        for try await value in try await connection.query(query, logger: logger).decode(String.self) { values.append(value) }
        return values
    }

    /// The first column of the first row, as a 64-bit integer (0 when there is no row or it is NULL).
    static func integer(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for try await value in try await connection.query(query, logger: logger).decode(Int64?.self) { return value ?? 0 }
        return 0
    }

    /// Runs one statement that returns no rows, on a connection of `pool`.
    static func execute(_ sql: String, on pool: LedgerPool, logger: Logger) async throws {
        let rows = try await pool.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await _ in rows {}
    }

    /// A checkpoint, so that what is timed next starts with no dirty buffers left by what came before.
    static func checkpoint(on pool: LedgerPool, logger: Logger) async throws {
        try await execute("CHECKPOINT", on: pool, logger: logger)
    }

    /// `SHOW server_version` ("?" when it gives no row).
    static func serverVersion(on pool: LedgerPool, logger: Logger) async throws -> String {
        let rows = try await pool.query("SHOW server_version", logger: logger)
        for try await version in rows.decode(String.self) { return version }
        return "?"
    }

    /// Migrates the ledger schema (as the administrator), with a progress note.
    static func migrate(_ admin: LedgerPool, logger: Logger) async throws {
        Progress.note("migrating the ledger schema")
        _ = try await Migrator(pool: admin, logger: logger).migrate()
    }
}
