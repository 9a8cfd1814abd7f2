import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// Appends with and without the tree kept up to date, on fresh logs, alternating.
enum TreeAppendComparison {
    /// Runs `rounds` rounds of the two, and gives the report's lines.
    static func measure(events: Int, batch: Int, rounds: Int, client: LedgerPool, logger: Logger) async throws -> [String] {
        let store = EventStore(pool: client, logger: logger)
        let runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        var plain: [Double] = [], withTree: [Double] = []
        var lines = ["", "appends: \(ReportText.grouped(Double(events))) simulated events per log in batches of \(batch) through "
            + "ledger.append_events, a fresh log each time; 'with the tree' runs a follower that calls ledger.extend_merkle_tree "
            + "whenever the head has moved (on its own connection), and the time includes bringing the tree to the head at the end"]
        for round in 1...rounds {
            for keepTree in round % 2 == 1 ? [false, true] : [true, false] {
                let log = "mb-\(runID)-\(round)-\(keepTree ? "tree" : "plain")"
                let source = try SimulatedEvents(count: events, families: max(1, events / 180), seed: UInt64(round), log: log)
                var batches: [[EventInput]] = []
                while true {
                    let next = try await source.nextBatch(batch)
                    if next.isEmpty { break }
                    batches.append(next)
                }
                Progress.note("round \(round): \(keepTree ? "with the tree" : "plain"), log \(log)")
                let watch = Stopwatch()
                var extensions = 0
                if keepTree {
                    _ = try await store.append(log: log, events: batches[0])
                    extensions = try await withThrowingTaskGroup(of: Int.self) { group in
                        let done = ManagedAtomicFlag()
                        group.addTask {
                            var calls = 0
                            let tree = MerkleStore(pool: client, logger: logger)
                            while !done.isSet {
                                let head = try await store.requireHead(log: log).position
                                if try await tree.size(log: log) < UInt64(head) {
                                    _ = try await client.query("SELECT ledger.extend_merkle_tree(\(log))", logger: logger)
                                    calls += 1
                                } else {
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                            }
                            return calls
                        }
                        for next in batches.dropFirst() { _ = try await store.append(log: log, events: next) }
                        done.set()
                        return try await group.reduce(0, +)
                    }
                    _ = try await MerkleStore(pool: client, logger: logger).extend(log: log)
                } else {
                    for next in batches { _ = try await store.append(log: log, events: next) }
                }
                let rate = Double(events) / watch.elapsedSeconds
                (keepTree ? { withTree.append(rate) } : { plain.append(rate) })()
                lines.append("round \(round), \(keepTree ? "with the tree" : "plain"): \(ReportText.grouped(rate)) events/s"
                    + (keepTree ? " (\(extensions) extensions while appending)" : ""))
            }
        }
        let bestPlain = plain.max() ?? 0, bestTree = withTree.max() ?? 0
        let medianPlain = plain.sorted()[plain.count / 2], medianTree = withTree.sorted()[withTree.count / 2]
        lines.append("best: plain \(ReportText.grouped(bestPlain)) events/s, with the tree \(ReportText.grouped(bestTree)) events/s "
            + "(ratio \(ReportText.fixed(bestTree / bestPlain, 3))); median: \(ReportText.grouped(medianPlain)) and "
            + "\(ReportText.grouped(medianTree)) (ratio \(ReportText.fixed(medianTree / medianPlain, 3)))")
        return lines
    }
}
