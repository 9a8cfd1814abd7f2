import ArgumentParser

/// `--keep` of the benchmarks that run on a throwaway cluster.
struct ThrowawayOptions: ParsableArguments {
    @Flag(help: "Leave the cluster running and its folder in place at the end.")
    var keep = false

    /// `" --keep"` when given, for the options in effect.
    var effective: String { keep ? " --keep" : "" }

    /// Starts a throwaway cluster (with `serverSettings` on top of the durable defaults), runs
    /// `measure` on it and prints its report (``BenchRun``).
    func report(serverSettings: [String] = [], _ measure: (BenchCluster) async throws -> [String]) async throws {
        try await BenchRun.report(on: try BenchCluster.throwaway(serverSettings: serverSettings), leaveRunning: keep, measure)
    }
}
