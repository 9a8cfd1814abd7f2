import Foundation

/// The ingest benchmark's report, in Markdown.
struct IngestReport {
    let clients: Int
    let pgbenchClients: Int
    let seconds: Int
    let warmup: Int
    let serverVersion: String
    let projections: Bool
    let commandLine: [String]

    /// pgbench rows per second, per round.
    var pgbench: [Double] = []
    /// How busy the machine was during each pgbench round, in percent.
    var busy: [Double] = []
    /// HTTP phases with group commit, per round.
    var grouped: [HTTPLoad.Outcome] = []
    /// Cores each party used during each grouped HTTP phase (warm-up included).
    var groupedCores: [CPUSplit.Cores] = []
    /// HTTP phases with an Idempotency-Key on each request, per round.
    var ungrouped: [HTTPLoad.Outcome] = []
    /// The paced phase: its target rate and outcome.
    var paced: (rate: Double, outcome: HTTPLoad.Outcome)?
    /// Every 201 the clients got, and the events the log holds at the end.
    var acknowledged = 0
    var stored = 0
    /// The server's exit status after SIGTERM.
    var exitStatus: Int32 = -1

    var lines: [String] {
        let groupedRates = grouped.map(\.perSecond), ungroupedRates = ungrouped.map(\.perSecond)
        var out = [
            "# Ingest: one event per HTTP request, beside pgbench single-row inserts", "",
            "Command: `\(commandLine.joined(separator: " "))`", "",
            "PostgreSQL \(serverVersion), a durable throwaway cluster (fsync and synchronous_commit on), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores; `consent-ledger serve` as a separate process"
                + (projections ? ", following the projections" : " with --no-projections") + "; "
                + "\(seconds) s measured per phase after \(warmup) s of warm-up; the phases take turns, round by round.", "",
            "| path | best | median | rounds |", "| --- | ---: | ---: | --- |",
            Self.row("pgbench, \(pgbenchClients) clients, one row per transaction into a plain table (rows/s)", pgbench),
            Self.row("HTTP, \(clients) clients, one event per request, group commit (events/s)", groupedRates),
            Self.row("HTTP, \(clients) clients, one event per request, Idempotency-Key on each: no group commit (events/s)", ungroupedRates),
            "",
            "- Grouped HTTP ingest against pgbench (medians): **\(Self.ratio(Self.median(groupedRates), Self.median(pgbench)))**; "
                + "best against best: \(Self.ratio(groupedRates.max() ?? 0, pgbench.max() ?? 0)).",
            "- Group commit against one transaction per request (medians): \(Self.ratio(Self.median(groupedRates), Self.median(ungroupedRates))).",
            "- Machine busy during pgbench: \(busy.map { String(format: "%.0f%%", $0) }.joined(separator: ", ")).",
            Self.coresLine(groupedCores),
            "",
            "Latency per request at full load (closed loop, all rounds):", "",
            "| path | p50 ms | p99 ms | max ms | failures |", "| --- | ---: | ---: | ---: | --- |",
            Self.latencyRow("grouped", grouped.reduce(into: HTTPLoad.Outcome()) { $0.merge($1) }),
            Self.latencyRow("no group commit", ungrouped.reduce(into: HTTPLoad.Outcome()) { $0.merge($1) }),
        ]
        if let paced {
            out += [
                "", "Latency at \(Self.ratioText(paced.rate, Self.median(groupedRates))) of the median grouped throughput: "
                    + "\(clients) clients posting \(Int(paced.rate)) events/s in all, each request timed from when it was due:", "",
                "| target events/s | achieved | p50 ms | p99 ms | max ms | failures |", "| ---: | ---: | ---: | ---: | ---: | --- |",
                "| \(Int(paced.rate)) | \(Int(paced.outcome.perSecond)) | \(Self.ms(HTTPLoad.percentile(paced.outcome.latencies, 0.5))) | "
                    + "\(Self.ms(HTTPLoad.percentile(paced.outcome.latencies, 0.99))) | \(Self.ms(paced.outcome.latencies.max() ?? .nan)) | "
                    + "\(Self.failures(paced.outcome)) |",
            ]
        }
        out += [
            "",
            "Nothing lost: \(acknowledged) events acknowledged with 201, \(stored) in the log"
                + (acknowledged == stored ? " (equal)." : " (**DIFFERENT**)."),
            "The server's exit status after SIGTERM: \(exitStatus).",
        ]
        return out
    }

    /// Where the cores went during the grouped phases, averaged over the rounds.
    static func coresLine(_ rounds: [CPUSplit.Cores]) -> String {
        guard !rounds.isEmpty else { return "- Cores by party during the grouped phases: not measured (no /proc)." }
        let c = rounds.reduce(CPUSplit.Cores(), +).averaged(over: rounds.count)
        return "- Cores by party during the grouped phases (average of \(rounds.count), warm-up included, of "
            + "\(ProcessInfo.processInfo.activeProcessorCount)): load generator \(String(format: "%.2f", c.generator)), "
            + "server \(String(format: "%.2f", c.server)), PostgreSQL \(String(format: "%.2f", c.postgres)), "
            + "other processes \(String(format: "%.2f", c.others))."
    }

    static func row(_ name: String, _ values: [Double]) -> String {
        "| \(name) | \(Int(values.max() ?? 0)) | \(Int(median(values))) | \(values.map { String(Int($0)) }.joined(separator: ", ")) |"
    }

    static func latencyRow(_ name: String, _ outcome: HTTPLoad.Outcome) -> String {
        "| \(name) | \(ms(HTTPLoad.percentile(outcome.latencies, 0.5))) | \(ms(HTTPLoad.percentile(outcome.latencies, 0.99))) | "
            + "\(ms(outcome.latencies.max() ?? .nan)) | \(failures(outcome)) |"
    }

    static func failures(_ outcome: HTTPLoad.Outcome) -> String {
        outcome.failures.isEmpty ? "none" : outcome.failures.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
    }

    /// The median (0 for none): ``PathTiming/median(_:)``.
    static func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : PathTiming.median(values) }

    static func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
    static func ratioText(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.0f%%", 100 * a / b) : "n/a" }
    static func ms(_ seconds: Double) -> String { seconds.isNaN ? "n/a" : String(format: "%.2f", seconds * 1000) }
}
