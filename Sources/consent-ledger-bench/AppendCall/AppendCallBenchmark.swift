import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// Issue 40's first figure on its own: PostgreSQL's cost of one append call beside a one-row
/// insert, with no server in between (the same scripts as the end of `ingest`).
struct AppendCallBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-call",
        abstract: "One append call (append_checked_events, append_events; 1 and 20 events) beside a one-row insert, pgbench -c 1.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder, migrates it with this build's \
            schema, and runs pgbench with one client (prepared statements, durable commits) round by round: \
            the single-row insert of `ingest`'s baseline into a plain table, then each append script, \
            --seconds each. The report gives each script's best and median milliseconds per call and the \
            median's ratio to the insert's median, all measured in this run.
            """
    )

    @Option(help: "Measured seconds per script and round.")
    var seconds = 8

    @Option(help: "Rounds; the report gives each script's best and median.")
    var rounds = 3

    @OptionGroup var cluster: ThrowawayOptions

    func validate() throws {
        guard seconds >= 1, rounds >= 1 else { throw ValidationError("--seconds and --rounds must be at least 1") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        try await cluster.report { throwaway in
            try await LedgerDatabase.with(throwaway.target, role: .administrator, keepRunning: true, logger: logger) { admin in
                _ = try await Migrator(pool: admin).migrate()
                for statement in PgbenchBaseline.table.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                    try await BenchSQL.execute(String(statement), on: admin, logger: logger)
                }
            }
            let baseline = try PgbenchBaseline(cluster: throwaway.cluster, folder: throwaway.cluster.directory.path)
            let timing = AppendCallTiming(baseline: baseline, folder: throwaway.cluster.directory.path)
            var perRound: [[AppendCallTiming.Timing]] = []
            for round in 1...rounds {
                Progress.note("round \(round) of \(rounds)")
                perRound.append(try timing.run(seconds: seconds))
            }
            return Self.lines(perRound, seconds: seconds)
        }
    }

    /// The report: one row per script, best and median over the rounds, the median ÷ the insert's.
    static func lines(_ rounds: [[AppendCallTiming.Timing]], seconds: Int) -> [String] {
        guard let first = rounds.first else { return [] }
        let medians = first.indices.map { index in PathTiming.median(rounds.map { $0[index].millisecondsPerCall }) }
        var out = ["# One append call beside a one-row insert (pgbench -c 1 -M prepared, durable commits, \(seconds) s per script, \(rounds.count) rounds)",
                   "", "| script | best ms per call | median ms per call | median ÷ the insert's |", "| --- | ---: | ---: | ---: |"]
        for (index, timing) in first.enumerated() {
            let best = rounds.map { $0[index].millisecondsPerCall }.min() ?? .nan
            out.append("| \(timing.label) | \(String(format: "%.3f", best)) | \(String(format: "%.3f", medians[index])) | "
                       + "\(String(format: "%.2f", medians[index] / medians[0])) |")
        }
        return out
    }
}
