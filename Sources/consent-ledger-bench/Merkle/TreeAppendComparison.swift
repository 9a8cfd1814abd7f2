import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// Appends with and without the tree kept up to date, and with checkpoints signed as the log grows
/// (what `serve --checkpoint-every` does, here with no interval at all: the worst case), on fresh
/// logs, the three in turn.
enum TreeAppendComparison {
    /// What runs beside the appends.
    enum Follower: String, CaseIterable {
        case plain = "plain"
        case tree = "with the tree"
        case signing = "with checkpoints signed"
    }

    /// Runs `rounds` rounds of the three, and gives the report's lines. Appends and the tree run as
    /// `client` (the application role); signing as `owner`, the only role that records checkpoints.
    static func measure(events: Int, batch: Int, rounds: Int, client: LedgerPool, owner: LedgerPool, logger: Logger) async throws -> [String] {
        let store = EventStore(pool: client, logger: logger)
        let runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        var rates: [Follower: [Double]] = [:]
        let key = try NoteSigningKey(generatingWithName: "bench.ledger")
        var lines = ["", "appends: \(ReportText.grouped(Double(events))) simulated events per log in batches of \(batch) through "
            + "ledger.append_events, a fresh log each time; 'with the tree' runs a follower that calls ledger.extend_merkle_tree "
            + "whenever the head has moved (on its own connection); 'with checkpoints signed' one that signs a checkpoint whenever "
            + "the head has moved (CheckpointStore.sign: tree to the head, the new records re-hashed, consistency with the last "
            + "checkpoint, signature), as serve --checkpoint-every does with no interval; the time includes bringing the tree "
            + "(and the checkpoint) to the head at the end"]
        for round in 1...rounds {
            let order = Follower.allCases
            for follower in order.dropFirst((round - 1) % order.count) + order.prefix((round - 1) % order.count) {
                let log = "mb-\(runID)-\(round)-\(follower == .plain ? "plain" : follower == .tree ? "tree" : "signed")"
                let source = try SimulatedEvents(count: events, families: max(1, events / 180), seed: UInt64(round), log: log)
                var batches: [[EventInput]] = []
                while true {
                    let next = try await source.nextBatch(batch)
                    if next.isEmpty { break }
                    batches.append(next)
                }
                Progress.note("round \(round): \(follower.rawValue), log \(log)")
                let watch = Stopwatch()
                var passes = 0
                if follower != .plain {
                    _ = try await store.append(log: log, events: batches[0])
                    passes = try await withThrowingTaskGroup(of: Int.self) { group in
                        let done = ManagedAtomicFlag()
                        group.addTask {
                            var calls = 0
                            let tree = MerkleStore(pool: client, logger: logger)
                            let checkpoints = CheckpointStore(pool: owner, logger: logger)
                            var reached: UInt64 = 0
                            while !done.isSet {
                                let head = UInt64(try await store.requireHead(log: log).position)
                                if follower == .tree, try await tree.size(log: log) < head {
                                    _ = try await client.query("SELECT ledger.extend_merkle_tree(\(log))", logger: logger)
                                    calls += 1
                                } else if follower == .signing, reached < head {
                                    reached = try await checkpoints.sign(log: log, key: key).checkpoint.treeSize
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
                    if follower == .tree {
                        _ = try await MerkleStore(pool: client, logger: logger).extend(log: log)
                    } else {
                        _ = try await CheckpointStore(pool: owner, logger: logger).sign(log: log, key: key)
                    }
                } else {
                    for next in batches { _ = try await store.append(log: log, events: next) }
                }
                let rate = Double(events) / watch.elapsedSeconds
                rates[follower, default: []].append(rate)
                lines.append("round \(round), \(follower.rawValue): \(ReportText.grouped(rate)) events/s"
                    + (follower == .tree ? " (\(passes) extensions while appending)" : follower == .signing ? " (\(passes) checkpoints signed while appending)" : ""))
            }
        }
        let plain = rates[.plain] ?? [1]
        let bestPlain = plain.max() ?? 1, medianPlain = plain.sorted()[plain.count / 2]
        for follower in [Follower.tree, .signing] {
            let measured = rates[follower] ?? [0]
            let best = measured.max() ?? 0, median = measured.sorted()[measured.count / 2]
            lines.append("best: plain \(ReportText.grouped(bestPlain)) events/s, \(follower.rawValue) \(ReportText.grouped(best)) events/s "
                + "(ratio \(ReportText.fixed(best / bestPlain, 3))); median: \(ReportText.grouped(medianPlain)) and "
                + "\(ReportText.grouped(median)) (ratio \(ReportText.fixed(median / medianPlain, 3)))")
        }
        return lines
    }
}
