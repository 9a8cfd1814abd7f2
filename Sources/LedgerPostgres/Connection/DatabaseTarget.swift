import Foundation
import LedgerCluster
import LedgerCore
import PostgresNIO

/// Which PostgreSQL the ledger talks to: the embedded cluster (the default) or a server the
/// user runs, given by URL.
public enum DatabaseTarget: Sendable {
    /// The private cluster the tool starts itself.
    case embedded(LocalCluster)
    /// A server the user runs.
    case external(PostgresURL)

    /// The role a piece of work needs. On the embedded cluster each maps to its own login; on an
    /// external server the URL's user is used for all of them.
    public enum Role: Sendable {
        /// Schema changes and cluster administration (the embedded superuser).
        case administrator
        /// Appending and reading: `consent_ledger_writer` on the embedded cluster, the ledger's own
        /// writer, which stores batches it has checked itself (decision 0072) and otherwise has
        /// the rights of `consent_ledger_app`.
        case application
        /// Reading only (`consent_ledger_auditor`).
        case auditor
    }

    /// Whether this is the embedded cluster (which the tool administers itself).
    public var isEmbedded: Bool {
        if case .embedded = self { return true }
        return false
    }

    /// A short description for messages: `embedded (./.consent-ledger)` or `postgres://host:port/db`.
    public var displayName: String {
        switch self {
        case .embedded(let cluster): return "the embedded database in \(cluster.directory.path)"
        case .external(let url):
            return "postgres://\(url.username)@\(url.host ?? url.socketDirectory ?? "?"):\(url.port)/\(url.database)"
        }
    }

    /// The connection settings for a role, against a database (the ledger's by default).
    public func settings(role: Role, database: String? = nil) -> ConnectionSettings {
        var settings = address(role: role, database: database)
        settings.stagesLargeRanges = role != .application
        return settings
    }

    /// Where and as whom `role` connects.
    private func address(role: Role, database: String?) -> ConnectionSettings {
        switch self {
        case .embedded(let cluster):
            let user: String
            switch role {
            case .administrator: user = LocalCluster.superuser
            case .application: user = "consent_ledger_writer"
            case .auditor: user = "consent_ledger_auditor"
            }
            return ConnectionSettings(socketPath: cluster.socketPath, host: nil, port: cluster.port, username: user,
                                      password: nil, database: database ?? LocalCluster.databaseName, requireTLS: false)
        case .external(let url):
            return ConnectionSettings(socketPath: url.socketDirectory.map { $0 + "/.s.PGSQL.\(url.port)" },
                                      host: url.host, port: url.port, username: url.username, password: url.password,
                                      database: database ?? url.database, requireTLS: url.requireTLS)
        }
    }
}
