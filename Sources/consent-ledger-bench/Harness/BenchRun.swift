import Logging

/// The skeleton every benchmark runs in: a cluster, the measurement, the cluster's end (also when
/// the measurement fails), then the report on standard output (progress went to standard error).
enum BenchRun {
    /// The logger handed to the ledger's code: warnings and worse only, so that standard error
    /// holds the benchmark's progress.
    static var logger: Logger {
        var logger = Logger(label: "consent-ledger-bench")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `measure` on `cluster`, finishes the cluster (``BenchCluster/finish(leaveRunning:)``)
    /// whether it succeeded or not, and prints the report's lines.
    static func report(on cluster: BenchCluster, leaveRunning: Bool,
                       _ measure: (BenchCluster) async throws -> [String]) async throws {
        let lines: [String]
        do {
            lines = try await measure(cluster)
        } catch {
            cluster.finish(leaveRunning: leaveRunning)
            throw error
        }
        cluster.finish(leaveRunning: leaveRunning)
        print(lines.joined(separator: "\n"))
    }
}
