import Foundation

/// One timed step of the bulk benchmark: its wall time and the CPU the benchmark's child processes
/// (the loader, or psql) and the PostgreSQL server used meanwhile.
struct BulkRound: Sendable {
    /// `append --bulk` or `COPY into <table>`.
    var name: String
    var round: Int
    var events: Int
    var seconds: Double
    /// CPU seconds of the child process (the loader, psql).
    var clientCPU: Double
    /// CPU seconds of every PostgreSQL process.
    var serverCPU: Double

    var eventsPerSecond: Double { Double(events) / seconds }

    /// Times `body` (which runs one child process to its end).
    static func measure(name: String, round: Int, events: Int, postmaster: Int?, _ body: () throws -> Void) throws -> BulkRound {
        let clientBefore = CPUShare.ticks("self", children: true) - CPUShare.ticks("self", children: false)
        let serverBefore = serverTicks(postmaster)
        let watch = Stopwatch()
        try body()
        let seconds = watch.elapsedSeconds
        let clientAfter = CPUShare.ticks("self", children: true) - CPUShare.ticks("self", children: false)
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return BulkRound(name: name, round: round, events: events, seconds: seconds,
                         clientCPU: Double(clientAfter - clientBefore) / perSecond,
                         serverCPU: Double(serverTicks(postmaster) - serverBefore) / perSecond)
    }

    /// The postmaster with its reaped children, plus the living ones.
    private static func serverTicks(_ postmaster: Int?) -> Int64 {
        guard let postmaster else { return 0 }
        return CPUShare.ticks("\(postmaster)", children: true)
            + ServerProcesses.children(of: postmaster).reduce(0) { $0 + CPUShare.ticks("\($1)", children: false) }
    }

    /// `round 1: append --bulk: 12.3 s, 81,300 events/s (loader 1.10 cores, PostgreSQL 0.62)`.
    var progressLine: String {
        "round \(round): \(name): \(ReportText.fixed(seconds, 2)) s, \(ReportText.grouped(eventsPerSecond)) events/s "
            + "(client \(ReportText.fixed(clientCPU / seconds, 2)) cores, PostgreSQL \(ReportText.fixed(serverCPU / seconds, 2)))"
    }
}

/// The bulk benchmark's report: every round, then the medians and the ratios to COPY.
struct BulkReport {
    var events: Int
    var fileBytes: Int
    var batchSize: Int
    var rounds: [BulkRound]
    var commandLine: String

    var lines: [String] {
        var out = ["# consent-ledger append --bulk beside COPY of the same rows", "",
                   commandLine, "",
                   "\(ReportText.grouped(Double(events))) events per round, \(ReportText.megabytes(Int64(fileBytes))) of NDJSON "
                       + "(\(fileBytes / max(1, events)) bytes a line), batches of \(ReportText.grouped(Double(batchSize))) "
                       + "committed one by one; durable cluster (fsync and synchronous commit on), "
                       + "\(ProcessInfo.processInfo.activeProcessorCount) cores.", "",
                   "| step | round | seconds | events/s | client cores | PostgreSQL cores |",
                   "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for row in rounds {
            out.append("| \(row.name) | \(row.round) | \(ReportText.fixed(row.seconds, 2)) | \(ReportText.grouped(row.eventsPerSecond)) "
                + "| \(ReportText.fixed(row.clientCPU / row.seconds, 2)) | \(ReportText.fixed(row.serverCPU / row.seconds, 2)) |")
        }
        let names = rounds.reduce(into: [String]()) { if !$0.contains($1.name) { $0.append($1.name) } }
        let medians = Dictionary(uniqueKeysWithValues: names.map { name in
            (name, PathTiming.median(rounds.filter { $0.name == name }.map(\.eventsPerSecond)))
        })
        out += ["", "Medians (events/s), and the load's ratio to each COPY:"]
        let load = medians["append --bulk"] ?? .nan
        for name in names {
            let ratio = name == "append --bulk" ? "" : "; append --bulk ÷ this: \(ReportText.fixed(load / (medians[name] ?? .nan), 3))"
            out.append("- \(name): \(ReportText.grouped(medians[name] ?? .nan))\(ratio)")
        }
        if let bulk = rounds.first(where: { $0.name == "append --bulk" }) {
            let perEvent = { (cpu: Double) in ReportText.fixed(cpu / Double(bulk.events) * 1e6, 1) }
            out.append("- CPU per event in the load (round 1): loader \(perEvent(bulk.clientCPU)) µs, PostgreSQL \(perEvent(bulk.serverCPU)) µs")
        }
        return out
    }
}
