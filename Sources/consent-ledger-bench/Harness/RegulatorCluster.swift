import Foundation
import LedgerCore
import LedgerPostgres

/// The regulator benchmark's cluster: a throwaway one (``ThrowawayCluster``, deleted at the end),
/// or, with `--keep DIR`, a durable cluster in DIR that outlives the run. Loading ten million
/// events takes ten minutes or more, so a kept cluster is reused by the next run with the same
/// `--keep DIR`: the log and the projections already there are measured again, not reloaded.
/// What the load cost (and the first projection build) is remembered in ``setupFile``.
struct RegulatorCluster: Sendable {
    /// The cluster.
    let cluster: LocalCluster
    /// True when it lives in a folder given with `--keep`.
    let kept: Bool

    /// The embedded target pointing at it.
    var target: DatabaseTarget { .embedded(cluster) }

    /// Where a kept cluster remembers how it was loaded (``RegulatorSetup``).
    var setupFile: String { cluster.directory.appendingPathComponent("regulator-bench.json").path }

    /// A throwaway cluster, or the one in `keep` (created there when missing, started when stopped).
    static func open(keep: String?) throws -> RegulatorCluster {
        guard let keep else { return RegulatorCluster(cluster: try ThrowawayCluster.start().cluster, kept: false) }
        let directory = URL(fileURLWithPath: keep).standardizedFileURL
        let cluster = LocalCluster(directory: directory, durable: true)
        let existed = FileManager.default.fileExists(atPath: cluster.dataDirectory + "/PG_VERSION")
        Progress.note(existed ? "reusing the kept cluster in \(directory.path)"
                              : "creating a durable cluster to keep in \(directory.path)")
        try cluster.start()
        return RegulatorCluster(cluster: cluster, kept: true)
    }

    /// A throwaway cluster is stopped and deleted. A kept one is stopped (or, with
    /// `leaveRunning`, left running) and its folder kept; the note says how to reach or reuse it.
    func finish(leaveRunning: Bool) {
        guard kept else {
            ThrowawayCluster(cluster: cluster).finish(keep: false)
            return
        }
        let psql = "psql -h \(cluster.socketDirectory) -p \(cluster.port) -U \(LocalCluster.superuser) \(LocalCluster.databaseName)"
        if leaveRunning {
            Progress.note("kept and running: \(cluster.directory.path); \(psql); stop it with "
                + "pg_ctl -D \(cluster.dataDirectory) stop (as the postgres user when run as root)")
            return
        }
        do { try cluster.stop() } catch { Progress.note("warning: \(error)") }
        Progress.note("kept (server stopped): \(cluster.directory.path); run again with --keep \(cluster.directory.path) "
            + "to measure without reloading (add --leave-running to query it with \(psql))")
    }
}

/// What a kept cluster's log was loaded from and what loading it (and first building its
/// projections) cost, written beside the cluster so that a later run can say so and check that it
/// was asked for the same log.
struct RegulatorSetup: Codable, Sendable {
    var events: Int
    var families: Int
    var seed: UInt64
    var days: Int
    var meanEventBytes: Int
    var loadBatchSize: Int
    /// Wall time of the load.
    var loadSeconds: Double
    /// Wall time of the last timed build of report_facts and anomalies, if any.
    var projectionSeconds: Double?
    /// When the load ended, UTC.
    var loadedAt: String

    /// The setup in `path`, or nil when there is none.
    static func read(_ path: String) throws -> RegulatorSetup? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try JSONDecoder().decode(RegulatorSetup.self, from: data)
    }

    /// Writes it to `path`.
    func write(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The loader's figures.
    var loaded: LogLoader.Loaded {
        LogLoader.Loaded(events: events, families: families, days: days, meanEventBytes: meanEventBytes, seconds: loadSeconds)
    }
}
