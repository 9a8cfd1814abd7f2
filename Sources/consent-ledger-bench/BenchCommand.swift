import ArgumentParser

/// `consent-ledger-bench`: measurements of the ledger against plain PostgreSQL, each in a
/// throwaway cluster of its own. One subcommand per benchmark.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent-ledger-bench",
        abstract: "Benchmarks of ConsentLedger, each run in a throwaway PostgreSQL cluster.",
        subcommands: [AppendBenchmark.self, AppendCallBenchmark.self, RebuildBenchmark.self, RegulatorBenchmark.self, MerkleBenchmark.self, IngestBenchmark.self,
                      BulkBenchmark.self, VerifyBenchmark.self]
    )
}
