import Foundation

/// The bulk benchmark's report: every round, then the medians and the ratios to COPY.
struct BulkReport {
    var events: Int
    var fileBytes: Int
    var batchSize: Int
    var rounds: [ChildRound]
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
        let (names, medians) = ChildRound.medians(rounds)
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
