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
    /// Whether the pool's work stages large ranges in temporary tables (the projections' folds and
    /// the reports: the auditor and administrator roles). Such a pool gets ``stagingTempBuffers``
    /// and at most ``stagingPoolSize`` connections; the others (appends) keep PostgreSQL's default.
    public var stagesLargeRanges: Bool = false

    /// The same settings against another database.
    public func with(database: String) -> ConnectionSettings {
        var copy = self
        copy.database = database
        return copy
    }

    /// Session settings sent when any connection starts. `TimeZone` is UTC so that any time the
    /// database writes as text (a finding's detail, a report's figures) reads the same whatever the
    /// server's default zone.
    public static let startupParameters: [(String, String)] = [("TimeZone", "UTC")]

    /// `temp_buffers` of a staging pool's connections. It can only be set before a session first
    /// touches a temporary table, and time travel folds into temporary tables and the reports stage
    /// their periods in them (a quarter's `regulator_period` 157 MB): with the default
    /// 8 MB every scan of it would go back to the operating system. PostgreSQL takes the memory as
    /// buffers are first used but never gives it back, and its clock sweep reaches every buffer in
    /// turn, so a long-lived session that makes and drops temporary tables grows to the whole
    /// amount (decision 0037): hence the few connections of ``stagingPoolSize``.
    public static let stagingTempBuffers = "256MB"

    /// The most connections a staging pool opens (PostgresNIO's default, kept for the others, is
    /// 20). With ``stagingTempBuffers`` this bounds what the temporary buffers can take in
    /// PostgreSQL: 2 pools × 6 × 256 MB.
    public static let stagingPoolSize = 6

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
        if stagesLargeRanges {
            configuration.options.additionalStartupParameters.append(("temp_buffers", Self.stagingTempBuffers))
            configuration.options.maximumConnections = Self.stagingPoolSize
        }
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
