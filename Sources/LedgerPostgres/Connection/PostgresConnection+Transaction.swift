import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws, and the
    /// error rethrown as it was (PostgresNIO's `withTransaction` wraps it in
    /// `PostgresTransactionError`, which would hide a ``LedgerError`` from callers).
    func inTransaction<Result>(logger: Logger, isolation: isolated (any Actor)? = #isolation,
                               _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await transaction(ending: "COMMIT", logger: logger, body)
    }

    /// Runs `body` in a transaction that is always rolled back: for work whose effects (temporary
    /// tables, time travel) must not outlive it.
    func inRolledBackTransaction<Result>(logger: Logger, isolation: isolated (any Actor)? = #isolation,
                                         _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await transaction(ending: "ROLLBACK", logger: logger, body)
    }

    private func transaction<Result>(ending: String, logger: Logger, isolation: isolated (any Actor)? = #isolation,
                                     _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await watchedQuery("BEGIN", logger: logger)
        let result: Result
        do {
            result = try await body(self)
        } catch {
            _ = try? await watchedQuery("ROLLBACK", logger: logger)
            throw error
        }
        try await watchedQuery(PostgresQuery(unsafeSQL: ending), logger: logger)
        return result
    }
}
