import Foundation
import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Opens a console session for `key` (already authenticated) lasting `lifetime`, as the
    /// application role (``ConsoleSessionStore``).
    public func openConsoleSession(key: APIKey, lifetime: Duration, client: String) async throws -> (token: String, expiresAt: String) {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).open(key: key, lifetime: lifetime, client: client)
    }

    /// The key of an open console session, or nil.
    public func consoleSessionKey(token: String) async throws -> APIKey? {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).key(forToken: token)
    }

    /// Ends a console session (sign-out).
    public func endConsoleSession(token: String) async throws {
        try await ConsoleSessionStore(pool: pools.application, logger: logger).end(token: token)
    }

    /// What the console shows of `log` at a glance (``ConsoleOverview``), as the auditor.
    public func consoleOverview(log: String) async throws -> ConsoleOverview {
        try await ConsoleOverview.compute(log: log, pool: pools.auditor, logger: logger)
    }
}
