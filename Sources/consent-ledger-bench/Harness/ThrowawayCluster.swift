import Foundation
import LedgerCore
import LedgerPostgres

/// A durable PostgreSQL cluster in a fresh temporary folder, for one benchmark run: created and
/// started by `start()`, stopped and deleted by `finish(keep: false)`.
struct ThrowawayCluster: Sendable {
    /// The cluster.
    let cluster: LocalCluster

    /// The embedded target pointing at it.
    var target: DatabaseTarget { .embedded(cluster) }

    /// Creates (initdb) and starts a cluster in a new folder under the temporary directory.
    static func start() throws -> ThrowawayCluster {
        let name = "consent-ledger-bench-" + UUID().uuidString.prefix(8).lowercased()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name)
        let cluster = LocalCluster(directory: directory, durable: true)
        Progress.note("starting a throwaway PostgreSQL cluster in \(directory.path)")
        try cluster.start()
        return ThrowawayCluster(cluster: cluster)
    }

    /// Stops the server and deletes its folder, or, with `keep`, leaves both and says how to reach it.
    func finish(keep: Bool) {
        if keep {
            Progress.note("kept: the cluster in \(cluster.directory.path) is still running; "
                + "psql -h \(cluster.socketDirectory) -p \(cluster.port) -U \(LocalCluster.superuser) \(LocalCluster.databaseName)")
            return
        }
        do { try cluster.stop() } catch { Progress.note("warning: \(error)") }
        try? FileManager.default.removeItem(at: cluster.directory)
        if !cluster.socketDirectory.hasPrefix(cluster.directory.path) {
            try? FileManager.default.removeItem(atPath: cluster.socketDirectory)
        }
    }
}
