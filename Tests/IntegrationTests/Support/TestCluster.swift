import Foundation
import LedgerCluster
import LedgerPostgres
#if canImport(Glibc)
import Glibc
#endif

/// The one throwaway PostgreSQL cluster of a test run: created in a fresh temporary folder on first
/// use, with the same code as the embedded default (so that code is tested too), and stopped and
/// removed when the test process exits. Nothing to set up by hand.
actor TestCluster {
    static let shared = TestCluster()

    private var starting: Task<LocalCluster, any Error>?

    /// The running cluster. Started once, on a thread of its own: `initdb` and `pg_ctl start` wait,
    /// and must not hold one of Swift concurrency's threads, which other tests need meanwhile.
    func running() async throws -> LocalCluster {
        if let starting { return try await starting.value }
        let task = Task { try await CLIRunner.onOwnThread { try Self.start() } }
        starting = task
        return try await task.value
    }

    private static func start() throws -> LocalCluster {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("consent-ledger-tests-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        let cluster = LocalCluster(directory: folder, durable: false,
                                   serverSettings: ["max_connections=1000", "shared_buffers=256MB",
                                                    // GroupCommitTests count commits by their timestamps.
                                                    "track_commit_timestamp=on"])
        clusterToStopAtExit = cluster
        atexit {
            guard let cluster = clusterToStopAtExit else { return }
            try? cluster.stop()
            try? FileManager.default.removeItem(at: cluster.directory)
        }
        try cluster.start()
        return cluster
    }
}

/// Read by the atexit handler, which cannot capture context.
nonisolated(unsafe) private var clusterToStopAtExit: LocalCluster?
