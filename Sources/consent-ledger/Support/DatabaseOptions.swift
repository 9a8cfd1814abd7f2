import ArgumentParser
import Foundation
import LedgerCluster
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
    ///
    /// The embedded cluster is `--data-dir` (or CONSENT_LEDGER_HOME), or the first `.consent-ledger`
    /// folder in the current folder or above it (``ClusterLocation``). Only the commands that set a
    /// ledger up pass `creating: true`; the others refuse a cluster that does not exist yet.
    func target(creating: Bool = false) throws -> DatabaseTarget {
        let environment = ProcessInfo.processInfo.environment
        if let url = databaseURL ?? environment["DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return .external(try PostgresURL(url))
        }
        let location = try ClusterLocation.resolve(explicit: explicitFolder, from: Self.currentFolder, creating: creating)
        if let note = location.note { Console.note("note: " + note) }
        return .embedded(location.cluster)
    }

    /// The project's data folder, where the signing key lives by default: --data-dir,
    /// CONSENT_LEDGER_HOME, the first `.consent-ledger` in the current folder or above it, or
    /// `./.consent-ledger` when there is none.
    func dataFolder() -> String {
        if let explicitFolder { return URL(fileURLWithPath: explicitFolder).standardizedFileURL.path }
        return (ClusterLocation.nearestMarker(from: Self.currentFolder)
            ?? Self.currentFolder.appendingPathComponent(ClusterLocation.folderName)).path
    }

    /// --data-dir, else a non-empty CONSENT_LEDGER_HOME.
    private var explicitFolder: String? {
        dataDirectory ?? ProcessInfo.processInfo.environment["CONSENT_LEDGER_HOME"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static var currentFolder: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
    }

    /// The embedded cluster, or an error for commands that only manage the embedded one.
    func embeddedCluster(creating: Bool = false) throws -> LocalCluster {
        guard case .embedded(let cluster) = try target(creating: creating) else {
            throw LedgerError(.invalidRequest, "`db` manages the embedded database, but a database URL was given",
                              hint: "Leave out --database-url and unset DATABASE_URL, or manage your own server yourself.")
        }
        return cluster
    }
}
