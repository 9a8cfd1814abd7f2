import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws, and the
    /// error rethrown as it was; a connection lost while the COMMIT was in flight is
    /// `outcome-unknown` (``DatabaseErrors/translateCommitFailure(_:)``), never a plain failure (PostgresNIO's `withTransaction` wraps it in
    /// `PostgresTransactionError`, which would hide a ``LedgerError`` from callers).
    /// `beginning` is the statement that opens it (`BEGIN ISOLATION LEVEL REPEATABLE READ …`).
    func inTransaction<Result>(logger: Logger, beginning: String = "BEGIN", isolation: isolated (any Actor)? = #isolation,
                               _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await transaction(beginning: beginning, ending: "COMMIT", logger: logger, body)
    }

    /// Runs `body` in a transaction that is always rolled back: for work whose effects (temporary
    /// tables, time travel) must not outlive it.
    func inRolledBackTransaction<Result>(logger: Logger, isolation: isolated (any Actor)? = #isolation,
                                         _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await transaction(beginning: "BEGIN", ending: "ROLLBACK", logger: logger, body)
    }

    private func transaction<Result>(beginning: String, ending: String, logger: Logger, isolation: isolated (any Actor)? = #isolation,
                                     _ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        try await watchedQuery(PostgresQuery(unsafeSQL: beginning), logger: logger)
        let result: Result
        do {
            result = try await body(self)
        } catch {
            _ = try? await watchedQuery("ROLLBACK", logger: logger)
            throw error
        }
        do {
            try await watchedQuery(PostgresQuery(unsafeSQL: ending), logger: logger)
        } catch where ending == "COMMIT" {
            // Sent, and no answer: it may have committed. Said so here, where it is known that
            // the error came from the COMMIT (issue 17).
            throw DatabaseErrors.translateCommitFailure(error)
        }
        return result
    }
}
