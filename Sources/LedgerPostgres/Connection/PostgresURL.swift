import Foundation
import LedgerCore

/// A `postgres://user:password@host:port/database` URL, as given to `--database-url` or
/// `DATABASE_URL`. A Unix socket is given as `?host=/path/to/socket-folder` (libpq's form);
/// `sslmode=require` turns TLS on.
public struct PostgresURL: Sendable, Equatable {
    /// Host name or address; nil when a socket folder is given.
    public var host: String?
    /// The folder holding the server's socket (`.s.PGSQL.<port>`).
    public var socketDirectory: String?
    /// TCP port, or the number in the socket file's name.
    public var port: Int
    /// The user name.
    public var username: String
    /// The password, if any.
    public var password: String?
    /// The database name.
    public var database: String
    /// Whether TLS is required.
    public var requireTLS: Bool

    /// Parses a URL, explaining what is wrong with a bad one.
    public init(_ text: String) throws(LedgerError) {
        let example = "postgres://user:password@localhost:5432/consent_ledger"
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else {
            throw LedgerError(.invalidRequest, "the database URL is not a postgres:// URL",
                              hint: "Write it as \(example), or leave it out to use the embedded database.")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = socket == nil ? (components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost") : nil
        socketDirectory = socket
        port = components.port ?? Int(query["port"] ?? "") ?? 5432
        username = components.user.flatMap { $0.removingPercentEncoding } ?? query["user"] ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding } ?? query["password"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? (query["dbname"] ?? username) : path
        let mode = query["sslmode"] ?? "disable"
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(mode) else {
            throw LedgerError(.invalidRequest, "sslmode \(mode) is not a libpq sslmode",
                              hint: "Use sslmode=disable or sslmode=require.")
        }
        requireTLS = ["require", "verify-ca", "verify-full"].contains(mode)
    }
}
