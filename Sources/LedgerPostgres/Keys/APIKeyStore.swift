import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// API keys in `ledger.api_keys`: bearer tokens `cl_<key id>_<secret>`, of which only the SHA-256 of
/// the secret is stored. Created and revoked by the owner (`consent-ledger keys`), checked by the
/// HTTP API with the application role.
///
/// ```swift
/// let (key, token) = try await APIKeyStore(client: admin).create(log: "acme", role: .ingest, label: "iOS app")
/// let identity = try await APIKeyStore(client: app).authenticate(token)   // nil for an unknown or revoked key
/// ```
public struct APIKeyStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.keys")) {
        self.pool = pool
        self.logger = logger
    }

    /// Creates a key for `log` with `role`; returns it and the bearer token, which is shown once.
    public func create(log: String, role: APIRole, label: String = "") async throws -> (APIKey, String) {
        guard log.range(of: "^[a-z0-9][a-z0-9._-]{0,62}$", options: .regularExpression) != nil else {
            throw LedgerError(.invalidLogId, "invalid log id \(log)", hint: "A log id is 1 to 63 characters of a-z, 0-9, '.', '_' and '-'.")
        }
        guard label.count <= 200 else { throw LedgerError(.invalidField, "a label is at most 200 characters", field: "label") }
        let keyID = Self.randomToken(length: 12)
        let secret = Self.randomToken(length: 43)
        let hash = Data(LedgerHash.sha256(secret.utf8))
        let rows = try await pool.query("""
            INSERT INTO ledger.api_keys (key_id, secret_hash, log_id, role, label) VALUES (\(keyID), \(hash), \(log), \(role.rawValue), \(label))
            RETURNING \(unescaped: Self.createdAtColumn)
            """, logger: logger)
        var createdAt = ""
        for try await value in rows.decode(String.self) { createdAt = value }
        return (APIKey(keyID: keyID, log: log, role: role, label: label, createdAt: createdAt, revokedAt: nil), "cl_\(keyID)_\(secret)")
    }

    /// The key a bearer token names, if it exists, is not revoked and its secret matches.
    public func authenticate(_ token: String) async throws -> APIKey? {
        let parts = token.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "cl", parts[1].count == 12, !parts[2].isEmpty, parts[2].count <= 100 else { return nil }
        let rows = try await pool.query("""
            SELECT key_id, secret_hash, log_id, role, label, \(unescaped: Self.createdAtColumn)
              FROM ledger.api_keys WHERE key_id = \(String(parts[1])) AND revoked_at IS NULL
            """, logger: logger)
        for try await (keyID, hash, log, role, label, createdAt) in rows.decode((String, Data, String, String, String, String).self) {
            let given = LedgerHash.sha256(parts[2].utf8)
            // Compared in constant time: every byte is looked at whatever the first difference.
            guard zip(given, Array(hash)).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0, hash.count == given.count,
                  let role = APIRole(rawValue: role) else { return nil }
            return APIKey(keyID: keyID, log: log, role: role, label: label, createdAt: createdAt, revokedAt: nil)
        }
        return nil
    }

    /// Every key (of `log`, when given), newest first.
    public func list(log: String? = nil) async throws -> [APIKey] {
        let rows = try await pool.query("""
            SELECT key_id, log_id, role, label, \(unescaped: Self.createdAtColumn),
                   to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              FROM ledger.api_keys WHERE \(log)::text IS NULL OR log_id = \(log) ORDER BY created_at DESC, key_id
            """, logger: logger)
        var keys: [APIKey] = []
        for try await (keyID, log, role, label, createdAt, revokedAt) in rows.decode((String, String, String, String, String, String?).self) {
            keys.append(APIKey(keyID: keyID, log: log, role: APIRole(rawValue: role) ?? .ingest, label: label, createdAt: createdAt,
                               revokedAt: revokedAt))
        }
        return keys
    }

    /// Revokes a key (at once: the next request with it gets 401). Returns false when no such
    /// unrevoked key exists.
    public func revoke(keyID: String) async throws -> Bool {
        let rows = try await pool.query(
            "UPDATE ledger.api_keys SET revoked_at = clock_timestamp() WHERE key_id = \(keyID) AND revoked_at IS NULL RETURNING key_id",
            logger: logger)
        var revoked = false
        for try await _ in rows.decode(String.self) { revoked = true }
        return revoked
    }

    private static let createdAtColumn = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

    /// `length` characters of [a-z0-9] from the system's secure random source.
    static func randomToken(length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
