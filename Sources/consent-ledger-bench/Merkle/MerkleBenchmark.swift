import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// `consent-ledger-bench merkle`: the verifiable log at ten million leaves. On the kept cluster of
/// `regulator` (its 10M-event log): the one-off build of the stored tree, then inclusion and
/// consistency proof generation at the head (p50, p99) beside a primary-key lookup of one event in
/// the same run, then append throughput with the tree kept up to date by a concurrent follower
/// beside the same appends without it, alternating, on fresh logs in the same cluster.
struct MerkleBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merkle",
        abstract: "Proof generation at 10M leaves (p50, p99) and appends with the tree kept up to date beside appends without it.",
        discussion: """
            Needs the cluster that `regulator --keep DIR` loaded (give the same --keep DIR). Builds the log's \
            Merkle tree to the head if it is not (timed: the one-off cost), then times --samples inclusion \
            proofs of random leaves and --samples consistency proofs from random sizes, each against the \
            tree of the whole log, and as many primary-key reads of one event's leaf hash as a baseline; \
            every proof is verified (outside the timing). Then --rounds rounds, each appending \
            --append-events simulated events in batches of --append-batch to a fresh log twice: once plain, \
            once with a follower task calling ledger.extend_merkle_tree after every commit it sees (order \
            alternating between rounds).
            """)

    @Option(help: ArgumentHelp("The folder of the cluster regulator --keep loaded.", valueName: "dir"))
    var keep: String

    @Option(help: "The loaded log.")
    var log = "bench"

    @Option(help: "Proofs of each kind (and baseline reads) to time.")
    var samples = 2_000

    @Option(name: .customLong("append-events"), help: "Events appended per log in the append comparison.")
    var appendEvents = 100_000

    @Option(name: .customLong("append-batch"), help: "Events per append in the append comparison.")
    var appendBatch = 1_000

    @Option(help: "Rounds of the append comparison (each appends to two fresh logs).")
    var rounds = 3

    func validate() throws {
        guard samples >= 10 else { throw ValidationError("--samples must be at least 10") }
        guard appendEvents >= 1, appendBatch >= 1, rounds >= 1 else {
            throw ValidationError("--append-events, --append-batch and --rounds must be at least 1")
        }
    }

    func run() async throws {
        var logger = Logger(label: "consent-ledger-bench")
        logger.logLevel = .warning
        let opened = try RegulatorCluster.open(keep: keep)
        defer { opened.finish(leaveRunning: false) }
        let settings = (log: log, samples: samples, appendEvents: appendEvents, appendBatch: appendBatch, rounds: rounds)
        var lines = ["merkle benchmark, \(UTCTime.seconds(Int64(Date().timeIntervalSince1970))): " + ReportText.typedCommandLine]
        lines += try await LedgerDatabase.with(opened.target, role: .administrator, keepRunning: true, logger: logger) { admin in
            _ = try await Migrator(pool: admin, logger: logger).migrate()
            let head = try await EventStore(pool: admin, logger: logger).head(log: settings.log)?.position ?? 0
            guard head > 1 else {
                throw BenchError("log \(settings.log) in \(keep) has \(head) events: load it first with tools/bench-regulator --keep \(keep)")
            }
            var out = try await MerkleBuild.measure(log: settings.log, head: UInt64(head), admin: admin, logger: logger)
            out += try await LedgerDatabase.with(opened.target, role: .auditor, keepRunning: true, logger: logger) { auditor in
                try await ProofTimings.measure(log: settings.log, size: UInt64(head), samples: settings.samples, client: auditor, logger: logger)
            }
            out += try await LedgerDatabase.with(opened.target, role: .application, keepRunning: true, logger: logger) { app in
                try await TreeAppendComparison.measure(events: settings.appendEvents, batch: settings.appendBatch, rounds: settings.rounds,
                                                       client: app, logger: logger)
            }
            return out
        }
        print(lines.joined(separator: "\n"))
    }
}

/// The one-off build of the stored tree, and its size.
enum MerkleBuild {
    static func measure(log: String, head: UInt64, admin: LedgerPool, logger: Logger) async throws -> [String] {
        let tree = MerkleStore(pool: admin, logger: logger)
        let before = try await tree.size(log: log)
        var lines: [String] = []
        if before < head {
            Progress.note("building the Merkle tree of \(log) from \(before) to \(head) leaves")
            let watch = Stopwatch()
            _ = try await tree.extend(log: log) { built, target in Progress.note("  tree built to \(built) of \(target) leaves") }
            let seconds = watch.elapsedSeconds
            lines.append("tree built from \(ReportText.grouped(Double(before))) to \(ReportText.grouped(Double(head))) leaves in "
                + "\(ReportText.fixed(seconds, 1)) s (\(ReportText.grouped(Double(head - before) / seconds)) leaves/s, chunks of 1,000,000, "
                + "one transaction each)")
        } else {
            lines.append("tree already built to \(ReportText.grouped(Double(head))) leaves (by an earlier run or a checkpoint)")
        }
        let rows = try await admin.query("""
            SELECT count(*)::bigint, pg_relation_size('ledger.merkle_nodes')::bigint, pg_indexes_size('ledger.merkle_nodes')::bigint,
                   pg_relation_size('ledger.events')::bigint
              FROM ledger.merkle_nodes WHERE log_id = \(log)
            """, logger: logger)
        for try await (count, heap, index, events) in rows.decode((Int64, Int64, Int64, Int64).self) {
            lines.append("ledger.merkle_nodes: \(ReportText.grouped(Double(count))) rows, \(ReportText.megabytes(heap)) + index "
                + "\(ReportText.megabytes(index)) (ledger.events: \(ReportText.megabytes(events)) without indexes)")
        }
        return lines
    }
}

/// Proof generation at the head beside a primary-key read, in milliseconds.
enum ProofTimings {
    static func measure(log: String, size: UInt64, samples: Int, client: LedgerPool, logger: Logger) async throws -> [String] {
        let tree = MerkleStore(pool: client, logger: logger)
        let root = try await tree.root(log: log, size: size)
        var generator = SystemRandomNumberGenerator()
        var lookup: [Double] = [], inclusion: [Double] = [], consistency: [Double] = [], pathLengths: [Int] = []
        Progress.note("timing \(samples) primary-key reads, inclusion proofs and consistency proofs at \(size) leaves, interleaved")
        for sample in 0..<samples {
            let index = UInt64.random(in: 0..<size, using: &generator)
            var watch = Stopwatch()
            let rows = try await client.query(
                "SELECT leaf_hash FROM ledger.events WHERE log_id = \(log) AND position = \(Int64(index) + 1)", logger: logger)
            var leaf: [UInt8] = []
            for try await hash in rows.decode(Data.self) { leaf = Array(hash) }
            lookup.append(watch.elapsedSeconds * 1000)

            watch = Stopwatch()
            let path = try await tree.inclusionProof(log: log, index: index, size: size)
            inclusion.append(watch.elapsedSeconds * 1000)
            try MerkleProofVerifier.verifyInclusion(leafHash: leaf, index: index, size: size, proof: path, root: root)
            pathLengths.append(path.count)

            let from = UInt64.random(in: 1..<size, using: &generator)
            watch = Stopwatch()
            let proof = try await tree.consistencyProof(log: log, from: from, to: size)
            consistency.append(watch.elapsedSeconds * 1000)
            if sample < 50 {  // each check needs the old root, one more read: a sample of them
                let oldRoot = try await tree.root(log: log, size: from)
                try MerkleProofVerifier.verifyConsistency(size1: from, size2: size, root1: oldRoot, root2: root, proof: proof)
            }
        }
        func row(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            func at(_ q: Double) -> String { ReportText.fixed(sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))], 2) }
            return "| \(name) | \(at(0.5)) | \(at(0.99)) | \(ReportText.fixed(sorted.last ?? 0, 2)) | "
                + "\(ReportText.fixed(values.reduce(0, +) / Double(values.count), 2)) |"
        }
        return [
            "", "proofs against the tree of \(ReportText.grouped(Double(size))) leaves, \(samples) of each, random leaves and sizes, one "
                + "connection, as the auditor; every inclusion proof and 50 consistency proofs verified (not timed); audit paths of "
                + "\(pathLengths.min() ?? 0) to \(pathLengths.max() ?? 0) hashes",
            "", "| ms per call | p50 | p99 | max | mean |", "| --- | ---: | ---: | ---: | ---: |",
            row("baseline: one event's leaf hash by primary key", lookup),
            row("inclusion proof (MerkleStore.inclusionProof)", inclusion),
            row("consistency proof (MerkleStore.consistencyProof)", consistency),
        ]
    }
}

/// Appends with and without the tree kept up to date, on fresh logs, alternating.
enum TreeAppendComparison {
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

/// A flag one task sets and another polls.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
