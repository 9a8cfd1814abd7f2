import LedgerCore
import LedgerPostgres

extension Ledger {
    /// The API key a bearer token names, if it is valid (known, well-formed, not revoked).
    public func authenticate(token: String) async throws -> APIKey? {
        try await APIKeyStore(pool: pools.application, logger: logger).authenticate(token)
    }

    /// Creates an API key bound to `log` and `role`; returns it and its secret token (shown once).
    public func createKey(log: String, role: APIRole, label: String = "") async throws -> (APIKey, String) {
        try await APIKeyStore(pool: pools.administrator, logger: logger).create(log: log, role: role, label: label)
    }

    /// The API keys (of `log` when given), revoked ones included.
    public func keys(log: String? = nil) async throws -> [APIKey] {
        try await APIKeyStore(pool: pools.administrator, logger: logger).list(log: log)
    }

    /// Revokes the key `keyID`; false when there is no such key or it was revoked already.
    public func revokeKey(_ keyID: String) async throws -> Bool {
        try await APIKeyStore(pool: pools.administrator, logger: logger).revoke(keyID: keyID)
    }
}
