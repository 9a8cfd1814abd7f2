import LedgerCore
import NIOSSL
import PostgresNIO

/// Where and as whom to connect, in a form both PostgresNIO configurations are made from.
public struct ConnectionSettings: Sendable, Equatable {
    /// The socket file, for a Unix-socket connection.
    public var socketPath: String?
    /// The host, for a TCP connection.
    public var host: String?
    /// The TCP port.
    public var port: Int
    /// The user name.
    public var username: String
    /// The password, if any.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether TLS is required (TCP only).
    public var requireTLS: Bool

    /// The same settings against another database.
    public func with(database: String) -> ConnectionSettings {
        var copy = self
        copy.database = database
        return copy
    }

    /// Session settings sent when a connection starts. `temp_buffers` can only be set before a
    /// session first touches a temporary table, and the projections stage every range in one
    /// (`fold_input`, tens of megabytes for a rebuild step): with the default 8 MB every scan of it
    /// would go back to the operating system. The memory is taken only as used. `TimeZone` is UTC
    /// so that any time the database writes as text (a finding's detail, a report's figures) reads
    /// the same whatever the server's default zone.
    public static let startupParameters: [(String, String)] = [("temp_buffers", "256MB"), ("TimeZone", "UTC")]

    /// The pool's configuration.
    public var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: username, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "localhost", port: port, username: username, password: password, database: database,
                                  tls: requireTLS ? .require(.makeClientConfiguration()) : .disable)
        }
        configuration.options.additionalStartupParameters = Self.startupParameters
        return configuration
    }

    /// A single connection's configuration.
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if let socketPath {
            return .init(unixSocketPath: socketPath, username: username, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS =
            requireTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        return .init(host: host ?? "localhost", port: port, username: username, password: password, database: database, tls: tls)
    }

    /// `user@where/database`, for messages.
    public var displayName: String { "\(username)@\(socketPath ?? "\(host ?? "localhost"):\(port)")/\(database)" }
}
