import Foundation
import LedgerCluster
import LedgerCore
import LedgerPostgres

/// The durable PostgreSQL cluster a benchmark runs on: a throwaway one in a fresh temporary folder
/// (deleted at the end unless asked to leave it running), or one kept in a folder given with
/// `--keep DIR`, which outlives the run and is reused by the next run with the same folder (loading
/// ten million events takes ten minutes or more, so what is loaded there is measured again, not
/// reloaded).
struct BenchCluster: Sendable {
    /// The cluster.
    let cluster: LocalCluster
    /// True when it lives in a folder given with `--keep DIR`.
    let kept: Bool

    /// The embedded target pointing at it.
    var target: DatabaseTarget { .embedded(cluster) }

    /// Creates (initdb) and starts a throwaway cluster in a new folder under the temporary directory.
    static func throwaway(serverSettings: [String] = []) throws -> BenchCluster {
        let name = "consent-ledger-bench-" + UUID().uuidString.prefix(8).lowercased()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name)
        let cluster = LocalCluster(directory: directory, durable: true, serverSettings: serverSettings)
        Progress.note("starting a throwaway PostgreSQL cluster in \(directory.path)")
        try cluster.start()
        return BenchCluster(cluster: cluster, kept: false)
    }

    /// A throwaway cluster (`keep` nil), or the one kept in `keep` (created there when missing,
    /// started when stopped).
    static func open(keep: String?) throws -> BenchCluster {
        guard let keep else { return try throwaway() }
        let directory = URL(fileURLWithPath: keep).standardizedFileURL
        let cluster = LocalCluster(directory: directory, durable: true)
        let existed = FileManager.default.fileExists(atPath: cluster.dataDirectory + "/PG_VERSION")
        Progress.note(existed ? "reusing the kept cluster in \(directory.path)"
                              : "creating a durable cluster to keep in \(directory.path)")
        try cluster.start()
        return BenchCluster(cluster: cluster, kept: true)
    }

    /// Ends the run's use of the cluster. A throwaway one is stopped and deleted, or, with
    /// `leaveRunning`, left running in its folder. A kept one is stopped (or, with `leaveRunning`,
    /// left running) and its folder kept. The note says how to reach or reuse what is left.
    func finish(leaveRunning: Bool) {
        let psql = "psql -h \(cluster.socketDirectory) -p \(cluster.port) -U \(LocalCluster.superuser) \(LocalCluster.databaseName)"
        switch (kept, leaveRunning) {
        case (false, true):
            Progress.note("kept: the cluster in \(cluster.directory.path) is still running; " + psql)
        case (true, true):
            Progress.note("kept and running: \(cluster.directory.path); \(psql); stop it with "
                + "pg_ctl -D \(cluster.dataDirectory) stop (as the postgres user when run as root)")
        case (false, false):
            stop()
            try? FileManager.default.removeItem(at: cluster.directory)
            if !cluster.socketDirectory.hasPrefix(cluster.directory.path) {
                try? FileManager.default.removeItem(atPath: cluster.socketDirectory)
            }
        case (true, false):
            stop()
            Progress.note("kept (server stopped): \(cluster.directory.path); run again with --keep \(cluster.directory.path) "
                + "to measure without reloading (add --leave-running to query it with \(psql))")
        }
    }

    private func stop() {
        do { try cluster.stop() } catch { Progress.note("warning: \(error)") }
    }
}
