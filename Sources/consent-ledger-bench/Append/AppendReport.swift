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
    /// The four paths: ledger, the bulk load, plain, indexed.
    var ledger: PathTiming
    var bulk: PathTiming
    var plain: PathTiming
    var indexed: PathTiming
    /// The command line, as typed.
    var commandLine: String

    /// The report, as lines for standard output.
    var lines: [String] {
        var out = [
            "append benchmark: \(events) events of ~\(meanEventBytes) bytes (records ~\(meanRecordBytes) bytes), "
                + "batches of \(batchSize), \(streams) streams, \(rounds) round\(rounds == 1 ? "" : "s") per path, "
                + "PostgreSQL \(serverVersion), \(T.coreCount), durable cluster (fsync, synchronous_commit on)",
            "",
            T.pad("path", 30) + T.lpad("best ev/s", 11) + T.lpad("median ev/s", 13) + T.lpad("batch p50 ms", 14)
                + T.lpad("batch p99 ms", 14) + T.lpad("ratio to plain", 16) + T.lpad("ratio to indexed", 18),
        ]
        if !extraSQL.isEmpty {
            out.insert("NOTE: schema changed after migration by \(extraSQL.joined(separator: ", ")) (an experiment, not the shipped schema)", at: 1)
        }
        for path in [ledger, bulk, plain, indexed] {
            out.append(T.pad(path.name, 30) + T.lpad(T.whole(path.bestRate), 11) + T.lpad(T.whole(path.medianRate), 13)
                + T.lpad(T.fixed(path.medianBatchMilliseconds, 1), 14) + T.lpad(T.fixed(path.p99BatchMilliseconds, 1), 14)
                + T.lpad(T.fixed(path.bestRate / plain.bestRate, 3), 16) + T.lpad(T.fixed(path.bestRate / indexed.bestRate, 3), 18))
        }
        let target = ledger.bestRate / plain.bestRate
        let bulkTarget = bulk.bestRate / plain.bestRate
        out += [
            "",
            "ratios are of the best rounds; of the medians: ledger/plain \(T.fixed(ledger.medianRate / plain.medianRate, 3)), "
                + "ledger/indexed \(T.fixed(ledger.medianRate / indexed.medianRate, 3)), indexed/plain \(T.fixed(indexed.medianRate / plain.medianRate, 3))",
            "issue 18's aim, ledger >= 0.35 x plain: \(target >= 0.35 ? "met" : "NOT met") (\(T.fixed(target, 3))); "
                + "the bulk load: \(T.fixed(bulkTarget, 3))",
            "same indexes = the \(indexCount) indexes of ledger.events (primary key included), copied from the catalog",
            "command: \(commandLine)",
        ]
        return out + [T.peakMemoryLine].compactMap { $0 }
    }

    private typealias T = ReportText
}
