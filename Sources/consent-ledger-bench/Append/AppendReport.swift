import Foundation

/// The append benchmark's printed result: a header describing the run, one line per path with
/// its best and median throughput and its ratios to the two plain inserts, and the command.
struct AppendReport {
    /// What was appended, and where.
    var events: Int
    var meanEventBytes: Int
    var meanRecordBytes: Int
    var batchSize: Int
    var streams: Int
    var rounds: Int
    var serverVersion: String
    var indexCount: Int
    /// SQL files applied after the migration (schema experiments), if any.
    var extraSQL: [String]
    /// The three paths: ledger, plain, indexed.
    var ledger: PathTiming
    var plain: PathTiming
    var indexed: PathTiming
    /// The command line, as typed.
    var commandLine: String

    /// The report, as lines for standard output.
    var lines: [String] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var out = [
            "append benchmark: \(events) events of ~\(meanEventBytes) bytes (records ~\(meanRecordBytes) bytes), "
                + "batches of \(batchSize), \(streams) streams, \(rounds) round\(rounds == 1 ? "" : "s") per path, "
                + "PostgreSQL \(serverVersion), \(cores) core\(cores == 1 ? "" : "s"), durable cluster (fsync, synchronous_commit on)",
            "",
            pad("path", 30) + lpad("best ev/s", 11) + lpad("median ev/s", 13) + lpad("batch p50 ms", 14)
                + lpad("batch p99 ms", 14) + lpad("ratio to plain", 16) + lpad("ratio to indexed", 18),
        ]
        if !extraSQL.isEmpty {
            out.insert("NOTE: schema changed after migration by \(extraSQL.joined(separator: ", ")) (an experiment, not the shipped schema)", at: 1)
        }
        for path in [ledger, plain, indexed] {
            out.append(pad(path.name, 30) + lpad(Self.whole(path.bestRate), 11) + lpad(Self.whole(path.medianRate), 13)
                + lpad(Self.fixed(path.medianBatchMilliseconds, 1), 14) + lpad(Self.fixed(path.p99BatchMilliseconds, 1), 14)
                + lpad(Self.fixed(path.bestRate / plain.bestRate, 3), 16) + lpad(Self.fixed(path.bestRate / indexed.bestRate, 3), 18))
        }
        let target = ledger.bestRate / plain.bestRate
        out += [
            "",
            "ratios are of the best rounds; of the medians: ledger/plain \(Self.fixed(ledger.medianRate / plain.medianRate, 3)), "
                + "ledger/indexed \(Self.fixed(ledger.medianRate / indexed.medianRate, 3)), indexed/plain \(Self.fixed(indexed.medianRate / plain.medianRate, 3))",
            "target ledger >= 0.3 x plain: \(target >= 0.3 ? "met" : "NOT met") (\(Self.fixed(target, 3)))",
            "same indexes = the \(indexCount) indexes of ledger.events (primary key included), copied from the catalog",
            "command: \(commandLine)",
        ]
        if let peak = ProcessMemory.peakResidentKiB() {
            out.append("peak RSS of the benchmark process (VmHWM): \(peak / 1024) MiB")
        }
        return out
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func lpad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private static func whole(_ value: Double) -> String { value.isFinite ? String(Int(value.rounded())) : "-" }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "-"
    }
}
