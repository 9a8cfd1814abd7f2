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
        let logger = BenchRun.logger
        let settings = (log: log, samples: samples, appendEvents: appendEvents, appendBatch: appendBatch, rounds: rounds, keep: keep)
        try await BenchRun.report(on: try BenchCluster.open(keep: keep), leaveRunning: false) { opened in
            var lines = ["merkle benchmark, \(UTCTime.now): " + ReportText.typedCommandLine]
            lines += try await LedgerDatabase.with(opened.target, role: .administrator, keepRunning: true, logger: logger) { admin in
                try await BenchSQL.migrate(admin, logger: logger)
                let head = try await EventStore(pool: admin, logger: logger).head(log: settings.log)?.position ?? 0
                guard head > 1 else {
                    throw BenchError("log \(settings.log) in \(settings.keep) has \(head) events: load it first with tools/bench-regulator "
                        + "--keep \(settings.keep)")
                }
                var out = try await MerkleBuild.measure(log: settings.log, head: UInt64(head), admin: admin, logger: logger)
                out += try await LedgerDatabase.with(opened.target, role: .auditor, keepRunning: true, logger: logger) { auditor in
                    try await ProofTimings.measure(log: settings.log, size: UInt64(head), samples: settings.samples, client: auditor,
                                                   logger: logger)
                }
                out += try await LedgerDatabase.with(opened.target, role: .application, keepRunning: true, logger: logger) { app in
                    try await TreeAppendComparison.measure(events: settings.appendEvents, batch: settings.appendBatch,
                                                           rounds: settings.rounds, client: app, owner: admin, logger: logger)
                }
                return out
            }
            return lines
        }
    }
}
