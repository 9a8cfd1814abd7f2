import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO
import LedgerSimulation

/// `consent-ledger-bench rebuild`: how fast the six projections are rebuilt from a log of a
/// million events, beside a plain sequential scan of the same log (and the scan with the JSON
/// parse of every record), in one run on one throwaway cluster.
struct RebuildBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Projection rebuild rate beside a sequential scan of the same log.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder, migrates the ledger schema and \
            appends a simulated history of --events events through ledger.append_events (setup, not measured; \
            progress on standard error). Then it times, on that log: a sequential scan of ledger.events \
            (count(*), and sum(length(record))), the scan with the jsonb parse of every record, and \
            ProjectionRebuilder rebuilding each projection alone and all six together (each range read and \
            parsed once, folded in Swift: decision 0061). The report goes to standard output.
            """
    )

    /// `--events`, `--families`: a log of a million events.
    enum Defaults: HistoryDefaults {
        static let history = HistoryDefaultValues(
            events: 1_000_000, eventsHelp: "Events in the simulated log.",
            families: 36_000, familiesHelp: "How many simulated families the log comes from; the days are chosen to give --events.")
    }

    @OptionGroup var loading: LoadOptions<Defaults>

    @Option(name: .customLong("chunk-size"), help: "Positions per rebuild step (ProjectionRebuilder.chunkSize).")
    var chunkSize: Int64 = 50_000

    @Option(help: "Rounds of rebuilding the six projections; the report gives the best and the median.")
    var rounds = 1

    @Option(name: .customLong("scan-rounds"), help: "Timed runs of each baseline scan.")
    var scanRounds = 3

    @OptionGroup var cluster: ThrowawayOptions

    /// The log the history is loaded into.
    static let log = "bench"

    func validate() throws {
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard scanRounds >= 1 else { throw ValidationError("--scan-rounds must be at least 1") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        let settings = Settings(load: loading.load, chunkSize: chunkSize, rounds: rounds, scanRounds: scanRounds,
                                commandLine: ReportText.commandLine(inEffect: "rebuild \(effectiveArguments)"))
        try await cluster.report { throwaway in
            try await Self.measure(on: RebuildRounds.Server(target: throwaway.target, dataDirectory: throwaway.cluster.dataDirectory),
                                   settings: settings, logger: logger).lines
        }
    }

    /// The options a run needs, as one value (the command itself is not `Sendable`).
    struct Settings: Sendable {
        var load: LogLoad
        var chunkSize: Int64
        var rounds: Int
        var scanRounds: Int
        var commandLine: String
    }

    /// Migrates, loads the log, then measures the baselines and the rebuilds.
    private static func measure(on host: RebuildRounds.Server, settings s: Settings, logger: Logger) async throws -> RebuildReport {
        let events = s.load.history.events, target = host.target
        return try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            try await BenchSQL.migrate(admin, logger: logger)
            let loaded = try await LedgerDatabase.with(target, role: .application, keepRunning: true, logger: logger) { app in
                try await LogLoader.load(s.load, log: log, store: EventStore(pool: app, logger: logger))
            }
            Progress.note("VACUUM (ANALYZE) ledger.events, CHECKPOINT")
            let server = try await admin.withConnection { connection in
                try await ServerFacts.settle(on: connection, logger: logger)
                return try await ServerFacts.read(on: connection, logger: logger)
            }
            Progress.note("baselines: sequential scans of \(events) rows")
            let measuring = MachineLoad()
            let baselines = try await ScanBaselines.measure(client: admin, log: log, rows: events, rounds: s.scanRounds, logger: logger)
            Progress.note("rebuilding every projection, chunks of \(s.chunkSize)")
            let rebuilds = try await RebuildRounds.measure(client: admin, server: host, chunkSize: s.chunkSize, rounds: s.rounds,
                                                           positions: events, logger: logger)
            let machineBusy = MachineLoad().busyPercent(since: measuring)
            return RebuildReport(loaded: loaded, loadBatchSize: s.load.batchSize, seed: s.load.history.seed, chunkSize: s.chunkSize,
                                 rounds: s.rounds, scanRounds: s.scanRounds, server: server, baselines: baselines, rebuilds: rebuilds,
                                 machineBusyPercent: machineBusy, commandLine: s.commandLine,
                                 date: UTCTime.now)
        }
    }

    /// The options as they took effect, defaults included.
    private var effectiveArguments: String {
        "\(loading.effective) --chunk-size \(chunkSize) --rounds \(rounds) --scan-rounds \(scanRounds)"
            + cluster.effective
    }
}
