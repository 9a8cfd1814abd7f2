import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO
import LedgerSimulation

/// `consent-ledger-bench append`: append throughput of `EventStore.append` (batches with every
/// hash, through the embedded writer's checked append: decision 0072) beside a plain `unnest` insert of the very same rows into a table with no
/// checks and no indexes, and into one with the ledger's indexes, in one run on one throwaway
/// cluster. Rounds are interleaved (ledger, plain, indexed, ledger, …), each into a fresh log or
/// table; the report gives each path's best and median round and the ratios.
struct AppendBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append throughput of EventStore.append (as the embedded writer: the checked append, decision 0072) beside a plain unnest insert of the same rows.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder, migrates the ledger schema, \
            generates the events (not timed), then times, round by round: EventStore.append in batches \
            (as the application role, which on the embedded cluster is the writer: the checked append, decision 0072), EventStore.appendCopying in the same batches (the owner's bulk load \
            through COPY, decision 0042), an INSERT … SELECT * FROM unnest(…) of the same precomputed rows \
            (positions, records, leaf and chain hashes) into bench_plain (no index, no constraint), and \
            the same into bench_indexed (the indexes of ledger.events). The report goes to standard \
            output, progress to standard error.
            """
    )

    /// `--events` (per round), `--families`, `--seed`.
    enum Defaults: HistoryDefaults {
        static let history = HistoryDefaultValues(
            events: 100_000, eventsHelp: "Events appended per round by each path.",
            families: 2_000, familiesHelp: "How many simulated families the events come from (consent-ledger simulate).")
    }

    @OptionGroup var history: HistoryOptions<Defaults>

    @Option(name: .customLong("batch-size"), help: "Events per batch (one transaction each).")
    var batchSize = 1_000

    @Option(help: "Rounds per path; the report gives the best and the median.")
    var rounds = 2

    @OptionGroup var cluster: ThrowawayOptions

    @Option(name: .customLong("extra-sql"),
            help: ArgumentHelp("A SQL file run as the administrator right after the migration, in one transaction, "
                + "to measure a schema change on the same workload (repeatable; the report names it).",
                valueName: "file"))
    var extraSQL: [String] = []

    func validate() throws {
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        let (events, families, seed) = (history.events, history.families, history.seed)
        Progress.note("simulating \(events) events from \(families) families (seed \(seed))")
        let workload = try Workload.generate(count: events, families: families, seed: seed)
        let ledgerBatches = stride(from: 0, to: events, by: batchSize).map { Array(workload.events[$0..<min($0 + batchSize, events)]) }
        Progress.note("precomputing the plain rows (records, leaf and chain hashes)")
        // A log id as long as the ledger's "bench-r1", so that the records have the same length.
        let plainBatches = try PlainBatch.batches(of: workload, batchSize: batchSize, log: "bench-b0")
        let meanRecordBytes = plainBatches.reduce(0) { $0 + $1.recordBytes } / events

        try await cluster.report { throwaway in
            try await measure(on: throwaway.target, ledgerBatches: ledgerBatches, plainBatches: plainBatches,
                              logger: logger) { ledger, bulk, plain, indexed, version, indexCount in
                AppendReport(events: events, meanEventBytes: workload.meanEventBytes, meanRecordBytes: meanRecordBytes,
                             batchSize: batchSize, streams: workload.streamCount, rounds: rounds, serverVersion: version,
                             indexCount: indexCount, extraSQL: extraSQL, ledger: ledger, bulk: bulk, plain: plain, indexed: indexed,
                             commandLine: ReportText.commandLine(inEffect: "append \(effectiveArguments)"))
            }.lines
        }
    }

    /// Migrates, then runs the rounds; hands the three timings, the server version and the index
    /// count to `makeReport`.
    private func measure(
        on target: DatabaseTarget, ledgerBatches: [[EventInput]], plainBatches: [PlainBatch], logger: Logger,
        makeReport: (PathTiming, PathTiming, PathTiming, PathTiming, String, Int) -> AppendReport
    ) async throws -> AppendReport {
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            try await BenchSQL.migrate(admin, logger: logger)
            for path in extraSQL {
                Progress.note("applying \(path)")
                try await SchemaExperiment.apply(file: path, on: admin, logger: logger)
            }
            let version = try await BenchSQL.serverVersion(on: admin, logger: logger)
            var indexCount = 0
            for table in PlainTable.allCases {
                indexCount = max(indexCount, try await table.recreate(on: admin, logger: logger))
                try await table.checkColumnsMatchLedger(on: admin, logger: logger)
            }

            let events = history.events
            var ledger = PathTiming(name: "EventStore.append (writer: checked)", eventsPerRound: events)
            var bulk = PathTiming(name: "bulk load (COPY, owner)", eventsPerRound: events)
            var plain = PathTiming(name: "plain unnest (no indexes)", eventsPerRound: events)
            var indexed = PathTiming(name: "plain unnest (same indexes)", eventsPerRound: events)
            try await LedgerDatabase.with(target, role: .application, keepRunning: true, logger: logger) { app in
                let store = EventStore(pool: app, logger: logger)
                for round in 1...rounds {
                    try await BenchSQL.checkpoint(on: admin, logger: logger)
                    let (ledgerSeconds, ledgerBatchSeconds) = try await AppendPaths.ledger(store: store, log: "bench-r\(round)", batches: ledgerBatches)
                    ledger.add(round: ledgerSeconds, batches: ledgerBatchSeconds)
                    Progress.note(Self.progressLine(round, ledger.name, ledgerSeconds, ledgerBatchSeconds))

                    try await BenchSQL.checkpoint(on: admin, logger: logger)
                    let (bulkSeconds, bulkBatchSeconds) = try await AppendPaths.ledger(
                        store: EventStore(pool: admin, logger: logger), log: "bench-c\(round)", batches: ledgerBatches, copying: true)
                    bulk.add(round: bulkSeconds, batches: bulkBatchSeconds)
                    Progress.note(Self.progressLine(round, bulk.name, bulkSeconds, bulkBatchSeconds))

                    for table in PlainTable.allCases {
                        try await table.recreate(on: admin, logger: logger)
                        try await BenchSQL.checkpoint(on: admin, logger: logger)
                        let (seconds, batchSeconds) = try await AppendPaths.unnest(client: admin, table: table, batches: plainBatches, logger: logger)
                        if table == .plain { plain.add(round: seconds, batches: batchSeconds) } else { indexed.add(round: seconds, batches: batchSeconds) }
                        Progress.note(Self.progressLine(round, table == .plain ? plain.name : indexed.name, seconds, batchSeconds))
                    }
                }
            }
            return makeReport(ledger, bulk, plain, indexed, version, indexCount)
        }
    }

    /// `round 1: <path>: 8.12 s (median batch: first tenth 70.1 ms, last tenth 90.3 ms)`: a batch
    /// time that grows along the round points at work that grows with the log.
    private static func progressLine(_ round: Int, _ name: String, _ seconds: Double, _ batches: [Double]) -> String {
        let tenth = max(1, batches.count / 10)
        let first = PathTiming.median(Array(batches.prefix(tenth))) * 1000
        let last = PathTiming.median(Array(batches.suffix(tenth))) * 1000
        return "round \(round): \(name): \(String(format: "%.2f", seconds)) s "
            + "(median batch: first tenth \(String(format: "%.1f", first)) ms, last tenth \(String(format: "%.1f", last)) ms)"
    }

    /// The options as they took effect, defaults included.
    private var effectiveArguments: String {
        "--events \(history.events) --batch-size \(batchSize) --families \(history.families) --rounds \(rounds) --seed \(history.seed)"
            + extraSQL.map { " --extra-sql \($0)" }.joined() + cluster.effective
    }
}
