import Foundation

/// The ingest benchmark's report, in Markdown.
struct IngestReport {
    /// One throughput phase, by the generator that ran it.
    enum Phase {
        case wrk(WrkLoad.Outcome)
        case swift(HTTPLoad.Outcome)
    }

    /// A throughput phase with what was measured around it.
    struct Measured {
        let phase: Phase
        /// Cores each party used (warm-up included); nil without /proc.
        let cores: CPUSplit.Cores?
        /// Warm-up and measured seconds, the span `cores` covers.
        let wallSeconds: Double
        /// Transactions committed (distinct commit timestamps) and the events in them, warm-up included.
        let transactions: Int
        let events: Int

        var perSecond: Double {
            switch phase {
            case .wrk(let o): return o.perSecond
            case .swift(let o): return o.perSecond
            }
        }
        var p50: Double {
            switch phase {
            case .wrk(let o): return o.p50
            case .swift(let o): return HTTPLoad.percentile(o.latencies, 0.5)
            }
        }
        var p99: Double {
            switch phase {
            case .wrk(let o): return o.p99
            case .swift(let o): return HTTPLoad.percentile(o.latencies, 0.99)
            }
        }
        var max: Double {
            switch phase {
            case .wrk(let o): return o.max
            case .swift(let o): return o.latencies.max() ?? .nan
            }
        }
        var failures: String {
            switch phase {
            case .wrk(let o):
                let parts = (o.replayed > 0 ? ["\(o.replayed) × 200"] : []) + (o.other > 0 ? ["\(o.other) × other"] : [])
                    + (o.errors > 0 ? ["\(o.errors) socket errors"] : [])
                return parts.isEmpty ? "" : parts.joined(separator: ", ")
            case .swift(let o):
                return o.failures.isEmpty ? "" : IngestReport.failures(o)
            }
        }
        /// Events per transaction.
        var meanBatch: Double { transactions > 0 ? Double(events) / Double(transactions) : .nan }
        /// The server's CPU time per stored event, in microseconds.
        var serverMicrosPerEvent: Double {
            guard let cores, events > 0 else { return .nan }
            return cores.server * wallSeconds / Double(events) * 1e6
        }
    }

    let generator: IngestBenchmark.Generator
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
    /// HTTP phases without an Idempotency-Key (group commit), per round.
    var grouped: [Measured] = []
    /// HTTP phases with an Idempotency-Key on each request, per round.
    var ungrouped: [Measured] = []
    /// The paced phase: its target rate and outcome.
    var paced: (rate: Double, outcome: HTTPLoad.Outcome)?
    /// Every 201 the clients got, and the events the log holds at the end.
    var acknowledged = 0
    /// Requests wrk may have had in flight when its runs ended: stored, perhaps, but not counted.
    var unnamedInFlight = 0
    var stored = 0
    /// The server's exit status after SIGTERM.
    var exitStatus: Int32 = -1
    /// PostgreSQL's time per `append_events` call beside a one-row insert, after the server stopped.
    var calls: [AppendCallTiming.Timing] = []

    var lines: [String] {
        let groupedRates = grouped.map(\.perSecond), ungroupedRates = ungrouped.map(\.perSecond)
        var out = [
            "# Ingest: one event per HTTP request, beside pgbench single-row inserts", "",
            "Command: `\(commandLine.joined(separator: " "))`", "",
            "PostgreSQL \(serverVersion), a durable throwaway cluster (fsync and synchronous_commit on), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores; `consent-ledger serve` as a separate process"
                + (projections ? ", following the projections" : " with --no-projections") + "; "
                + "\(seconds) s measured per phase after \(warmup) s of warm-up; the phases take turns, round by round. "
                + "HTTP load from " + (generator == .wrk ? "`wrk -t2 -c\(clients)` (a Lua script: a fresh event per request)" : "the Swift client library")
                + ".", "",
            "| path | best | median | rounds |", "| --- | ---: | ---: | --- |",
            Self.row("pgbench, \(pgbenchClients) clients, one row per transaction into a plain table (rows/s)", pgbench),
            Self.row("HTTP, \(clients) clients, one event per request (events/s)", groupedRates),
            Self.row("HTTP, \(clients) clients, one event per request with an Idempotency-Key (events/s)", ungroupedRates),
            "",
            "- Grouped HTTP ingest against pgbench (medians): **\(Self.ratio(Self.median(groupedRates), Self.median(pgbench)))**; "
                + "best against best: \(Self.ratio(groupedRates.max() ?? 0, pgbench.max() ?? 0)).",
            "- With an Idempotency-Key against without (medians): \(Self.ratio(Self.median(ungroupedRates), Self.median(groupedRates))).",
            "- Events per transaction (mean over the rounds, warm-up included): without a key "
                + "\(String(format: "%.1f", Self.median(grouped.map(\.meanBatch)))), with a key \(String(format: "%.1f", Self.median(ungrouped.map(\.meanBatch)))).",
            "- The server's CPU time per stored event (median of the rounds): without a key "
                + "\(String(format: "%.0f", Self.median(grouped.map(\.serverMicrosPerEvent)))) µs, with a key "
                + "\(String(format: "%.0f", Self.median(ungrouped.map(\.serverMicrosPerEvent)))) µs.",
            "- Machine busy during pgbench: \(busy.map { String(format: "%.0f%%", $0) }.joined(separator: ", ")).",
            Self.coresLine(grouped.compactMap(\.cores)),
            "",
            "Latency per request at full load (closed loop), per round:", "",
            "| path | round | p50 ms | p99 ms | max ms | other answers |", "| --- | ---: | ---: | ---: | ---: | --- |",
        ]
        for (name, phases) in [("no key", grouped), ("Idempotency-Key", ungrouped)] {
            for (round, phase) in phases.enumerated() {
                out.append("| \(name) | \(round + 1) | \(Self.ms(phase.p50)) | \(Self.ms(phase.p99)) | \(Self.ms(phase.max)) | "
                    + "\(phase.failures.isEmpty ? "none" : phase.failures) |")
            }
        }
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
        if !calls.isEmpty {
            out += ["", "PostgreSQL alone, after the server stopped: pgbench, one client, \(seconds) s per script, durable commits:", "",
                    "| script | ms per call | ÷ the insert |", "| --- | ---: | ---: |"]
            let insert = calls[0].millisecondsPerCall
            out += calls.map { "| \($0.label) | \(String(format: "%.2f", $0.millisecondsPerCall)) | \(String(format: "%.2f", $0.millisecondsPerCall / insert)) |" }
        }
        out += [
            "",
            Self.nothingLost(acknowledged: acknowledged, stored: stored, inFlight: unnamedInFlight),
            "The server's exit status after SIGTERM: \(exitStatus).",
        ]
        return out
    }

    /// Every acknowledged event stored: exactly, when every request was followed to its answer;
    /// by count when wrk ran (stored ≥ acknowledged, the difference at most what it had in flight
    /// at the end of its runs).
    static func nothingLost(acknowledged: Int, stored: Int, inFlight: Int) -> String {
        if inFlight == 0 {
            return "Nothing lost: \(acknowledged) events acknowledged with 201, \(stored) in the log"
                + (acknowledged == stored ? " (equal)." : " (**DIFFERENT**).")
        }
        let holds = stored >= acknowledged && stored - acknowledged <= inFlight
        return "Nothing lost, by count (wrk cannot name the events of the requests in flight when it stops): \(acknowledged) "
            + "events acknowledged with 201, \(stored) in the log, \(stored - acknowledged) more than acknowledged, of at most "
            + "\(inFlight) in flight at the ends of wrk's runs" + (holds ? " (holds)." : " (**DOES NOT HOLD**).")
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

    static func failures(_ outcome: HTTPLoad.Outcome) -> String {
        outcome.failures.isEmpty ? "none" : outcome.failures.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
    }

    /// The median (0 for none): ``PathTiming/median(_:)``.
    static func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : PathTiming.median(values) }

    static func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
    static func ratioText(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.0f%%", 100 * a / b) : "n/a" }
    static func ms(_ seconds: Double) -> String { seconds.isNaN ? "n/a" : String(format: "%.2f", seconds * 1000) }
}
