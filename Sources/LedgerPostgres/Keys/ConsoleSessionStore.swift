import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Sessions of the auditor's console (`ledger.console_sessions`): an API key, already
/// authenticated, exchanged for a session token the browser keeps in a cookie. Only the SHA-256 of
/// the token is stored; a session ends at its expiry, at sign-out, or when its key is revoked.
///
/// ```swift
/// let sessions = ConsoleSessionStore(pool: app)
/// let (token, expires) = try await sessions.open(key: key, lifetime: .seconds(8 * 3600), client: "10.0.0.7")
/// let same = try await sessions.key(forToken: token)   // the key, while the session is open
/// try await sessions.end(token: token)
/// ```
public struct ConsoleSessionStore: Sendable {
    /// The pool (the application role may open, read and end sessions).
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.console")) {
        self.pool = pool
        self.logger = logger
    }

    /// Opens a session for `key` lasting `lifetime`; returns its token (shown to the browser once,
    /// in a cookie) and when it expires (UTC, RFC 3339). Throws ``LedgerError`` (`unauthorized`-like
    /// ``LedgerError/Code/invalidKey``) when the key was revoked meanwhile.
    public func open(key: APIKey, lifetime: Duration, client: String) async throws -> (token: String, expiresAt: String) {
        let token = "cs_" + APIKeyStore.randomToken(length: 43)
        let seconds = Int64(lifetime.components.seconds)
        let rows = try await pool.query("""
            SELECT to_char(ledger.open_console_session(\(Data(LedgerHash.sha256(token.utf8))), \(key.keyID),
                           make_interval(secs => \(seconds)), \(client)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            """, logger: logger)
        for try await expires in rows.decode(String?.self) {
            if let expires { return (token, expires) }
        }
        throw LedgerError(.invalidKey, "the API key \(key.keyID) was revoked; no session was opened")
    }

    /// The key of the open session `token` names (nil: unknown, ended, expired, or its key revoked).
    public func key(forToken token: String) async throws -> APIKey? {
        guard token.hasPrefix("cs_"), token.utf8.count == 46 else { return nil }
        let rows = try await pool.query("""
            SELECT k.key_id, k.log_id, k.role, k.label, \(unescaped: "to_char(k.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')")
              FROM ledger.console_sessions s JOIN ledger.api_keys k USING (key_id)
             WHERE s.session_hash = \(Data(LedgerHash.sha256(token.utf8))) AND s.ended_at IS NULL
               AND s.expires_at > clock_timestamp() AND k.revoked_at IS NULL
            """, logger: logger)
        for try await (keyID, log, role, label, createdAt) in rows.decode((String, String, String, String, String).self) {
            guard let role = APIRole(rawValue: role) else { return nil }
            return APIKey(keyID: keyID, log: log, role: role, label: label, createdAt: createdAt)
        }
        return nil
    }

    /// Ends the session `token` names; false when it was not open.
    @discardableResult
    public func end(token: String) async throws -> Bool {
        let rows = try await pool.query("SELECT ledger.end_console_session(\(Data(LedgerHash.sha256(token.utf8))))", logger: logger)
        for try await ended in rows.decode(Bool.self) { return ended }
        return false
    }
}
