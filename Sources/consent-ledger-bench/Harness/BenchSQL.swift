import Logging
import PostgresNIO

/// Statements on one pinned connection, for the benchmarks that need session state (settings,
/// the temporary `fold_input`) or that time single statements.
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
}
