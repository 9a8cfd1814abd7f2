import LedgerCore
import LedgerPostgres

extension Ledger {
    /// The API key a bearer token names, if it is valid (known, well-formed, not revoked): from
    /// ``keyCache`` while ``followKeyChanges()`` runs, else from the database.
    public func authenticate(token: String) async throws -> APIKey? {
        let digest = LedgerHash.sha256(token.utf8)
        if let key = keyCache.key(forToken: digest) { return key }
        let generation = keyCache.generation()
        guard let key = try await APIKeyStore(pool: pools.application, logger: logger).authenticate(token) else { return nil }
        if let generation { keyCache.store(key, forToken: digest, startedIn: generation) }
        return key
    }

    /// Keeps ``keyCache`` in step with the database until the task is cancelled: listens for key
    /// changes on a connection of its own and caches keys only while it hears them (decision
    /// 0039). `serve` runs it beside the server; without it every request's key is looked up.
    public func followKeyChanges() async {
        guard let settings = pools.application.settings else { return }
        let cache = keyCache
        await ChannelListener.apiKeyChanges(settings: settings, logger: logger).run(
            listening: { cache.listening() }, heard: { cache.changed(keyID: $0) }, lost: { cache.lost() })
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
