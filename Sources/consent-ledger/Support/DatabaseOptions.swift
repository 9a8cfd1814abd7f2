import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// Where the ledger's database is: shared by every command that touches it.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"),
            help: ArgumentHelp("A PostgreSQL server to use instead of the embedded one (or set DATABASE_URL).",
                               valueName: "postgres://user:password@host:port/database"))
    var databaseURL: String?

    @Option(name: .customLong("data-dir"),
            help: ArgumentHelp("The embedded database's folder (or set CONSENT_LEDGER_HOME).", valueName: "folder"))
    var dataDirectory: String?

    /// The database to use: the URL if one is given, the embedded cluster otherwise.
    func target() throws -> DatabaseTarget {
        let environment = ProcessInfo.processInfo.environment
        if let url = databaseURL ?? environment["DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return .external(try PostgresURL(url))
        }
        if let folder = dataDirectory ?? environment["CONSENT_LEDGER_HOME"] {
            return .embedded(LocalCluster(directory: URL(fileURLWithPath: folder)))
        }
        let (cluster, note) = LocalCluster.forProject(folder: URL(fileURLWithPath: ".consent-ledger"))
        if let note { Console.note("note: " + note) }
        return .embedded(cluster)
    }

    /// The embedded cluster, or an error for commands that only manage the embedded one.
    func embeddedCluster() throws -> LocalCluster {
        guard case .embedded(let cluster) = try target() else {
            throw LedgerError(.invalidRequest, "`db` manages the embedded database, but a database URL was given",
                              hint: "Leave out --database-url and unset DATABASE_URL, or manage your own server yourself.")
        }
        return cluster
    }
}
