import Foundation

/// The verify benchmark's report: every round, then the medians, the ratio to the plain read and
/// the memory of the client and of the server's backends.
struct VerifyReport {
    var events: Int
    var after: Int
    var fileBytes: Int
    var tableBytes: Int64
    var rounds: [ChildRound]
    var backends: [BackendMemory.Peak]
    var commandLine: String

    var lines: [String] {
        var out = ["# consent-ledger verify beside a plain read of the same records", "",
                   commandLine, "",
                   "A log of \(ReportText.grouped(Double(events + after))) events (\(ReportText.megabytes(Int64(fileBytes))) of NDJSON "
                       + "for the first \(ReportText.grouped(Double(events)))), ledger.events \(ReportText.megabytes(tableBytes)); a signed "
                       + "checkpoint and the stored Merkle tree at \(ReportText.grouped(Double(events))) leaves, "
                       + "\(ReportText.grouped(Double(after))) events after them; durable cluster, "
                       + "\(ProcessInfo.processInfo.activeProcessorCount) cores.", "",
                   "| step | round | seconds | events/s | client cores | PostgreSQL cores | client peak MiB |",
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for row in rounds {
            let peak = row.clientPeakKiB.map { ReportText.fixed(Double($0) / 1024, 0) } ?? "–"
            let client = row.clientCPU == 0 ? "–" : ReportText.fixed(row.clientCPU / row.seconds, 2)
            out.append("| \(row.name) | \(row.round) | \(ReportText.fixed(row.seconds, 3)) | \(ReportText.grouped(row.eventsPerSecond)) "
                + "| \(client) | \(ReportText.fixed(row.serverCPU / row.seconds, 2)) | \(peak) |")
        }
        let (names, medians) = ChildRound.medians(rounds)
        let baseline = medians["baseline: sum(length(record))"] ?? .nan
        out += ["", "Medians (events/s), and each ÷ the baseline's rows/s:"]
        for name in names {
            out.append("- \(name): \(ReportText.grouped(medians[name] ?? .nan)) (÷ baseline \(ReportText.fixed((medians[name] ?? .nan) / baseline, 3)))")
        }
        if let verify = rounds.first(where: { $0.name == "verify" }) {
            let perEvent = { (cpu: Double) in ReportText.fixed(cpu / Double(verify.events) * 1e6, 2) }
            out.append("- CPU per event verified (round 1): client \(perEvent(verify.clientCPU)) µs, PostgreSQL \(perEvent(verify.serverCPU)) µs")
        }
        if !backends.isEmpty {
            let hwm = backends.map(\.hwmKiB).max() ?? 0
            let anon = backends.map(\.anonKiB).max() ?? 0
            out.append("- the server's backends during verify (\(backends.count) over the rounds): largest VmHWM "
                + "\(ReportText.fixed(Double(hwm) / 1024, 0)) MiB (shared buffers it touched included), largest private (RssAnon) "
                + "\(ReportText.fixed(Double(anon) / 1024, 0)) MiB")
        }
        return out
    }
}
