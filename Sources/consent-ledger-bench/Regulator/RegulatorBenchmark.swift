import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Logging
import PostgresNIO
import LedgerSimulation

/// `consent-ledger-bench regulator`: the regulator report for one quarter of a simulated log of
/// ten million events (issue 19 aims at under 5 seconds): its wall time, the time of each of its
/// steps and the peak memory of the bench and of the server backends serving it, beside plain
/// `count(*)` queries over the same rows, in one run on one cluster.
struct RegulatorBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regulator",
        abstract: "The regulator report for one quarter of a 10-million-event log, beside count(*) over the same rows.",
        discussion: """
            Starts its own durable PostgreSQL cluster, migrates it and appends --events simulated events \
            through ledger.append_events (setup, not measured: about 16,000 events/s, so 10 minutes or more \
            for 10 million; progress on standard error). Then it brings the report_facts and anomalies \
            projections to the head with ProjectionRebuilder and ProjectionRunner, as `consent-ledger project \
            run` does, and times that apart (the one-off cost the report relies on, decision 0013); runs \
            VACUUM (ANALYZE) and CHECKPOINT; chooses the full calendar quarter of the simulated span with the \
            most events (or --quarter) and the jurisdiction with the most events in it, with its country when \
            it is a subdivision (US for US-TX), or --jurisdiction. Each of --rounds rounds then times the \
            baselines (count(*) of the whole log, of the quarter's events through events_occurred_at, of the \
            quarter's report_facts rows, sum(length(record)) of the log) and RegulatorReport.compute as the \
            auditor for each jurisdiction, step by step, with the peak memory of this process and of the \
            backends serving the report (from /proc). The report goes to standard output. \
            With --keep DIR the cluster lives in DIR and is kept (server stopped) at the end; a later run \
            with the same --keep DIR reuses the loaded log and projections instead of loading again.
            """
    )

    /// `--events`, `--families`: a log of ten million events over about a year.
    enum Defaults: HistoryDefaults {
        static let history = HistoryDefaultValues(
            events: 10_000_000, eventsHelp: "Events in the simulated log.",
            families: 54_000, familiesHelp: "How many simulated families the log comes from (54,000 make 10 million events span about a year).")
    }

    @OptionGroup var loading: LoadOptions<Defaults>

    @Option(help: "Timed rounds (each: the baselines, then one report per jurisdiction).")
    var rounds = 3

    @Option(help: ArgumentHelp("The quarter to report on, as 2027-Q1 (default: the full quarter of the span with the most events).",
                               valueName: "yyyy-Qn"))
    var quarter: String?

    @Option(name: .customLong("jurisdiction"),
            help: ArgumentHelp("A jurisdiction to report on; repeat for several (default: the one with the most events in the "
                                   + "quarter, and its country when it is a subdivision).", valueName: "code"))
    var jurisdictions: [String] = []

    @Option(help: ArgumentHelp("Keep the cluster in this folder, and reuse the log and projections already loaded there.",
                               valueName: "dir"))
    var keep: String?

    @Flag(name: .customLong("rebuild-projections"),
          help: "Rebuild report_facts and anomalies (timed) even when they are already at the head (a kept cluster).")
    var rebuildProjections = false

    @Flag(name: .customLong("leave-running"), help: "With --keep: leave the server running at the end (to query it with psql).")
    var leaveRunning = false

    @Option(name: .customLong("checkpoint-behind"),
            help: ArgumentHelp("Sign a checkpoint this many positions behind the head before measuring (once; a kept cluster keeps "
                                   + "it), so that the report re-hashes only the positions after it; a negative value: none.",
                               valueName: "positions"))
    var checkpointBehind = 1_000_000

    @Option(name: .customLong("sample-ms"), help: "How often the server backends' memory is sampled, in milliseconds.")
    var sampleMilliseconds = 50

    @Option(name: .customLong("quiet-wait"),
            help: ArgumentHelp("Before each round, wait up to this many seconds until other processes use less than a quarter "
                                   + "of a core (0: do not wait).", valueName: "seconds"))
    var quietWait = 300

    /// The log the history is loaded into.
    static let log = "bench"

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard sampleMilliseconds >= 1 else { throw ValidationError("--sample-ms must be at least 1") }
        guard quietWait >= 0 else { throw ValidationError("--quiet-wait must be 0 or more") }
        if let quarter, RegulatorScope.quarter(named: quarter) == nil {
            throw ValidationError("--quarter \(quarter): give it as 2027-Q1")
        }
        for code in jurisdictions where !EventEnvelope.Jurisdiction.isValidCode(code) {
            throw ValidationError("--jurisdiction \(code) is not a jurisdiction code (US, US-TX, GB, EU)")
        }
        guard !leaveRunning || keep != nil else { throw ValidationError("--leave-running needs --keep DIR") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        let settings = Settings(load: loading.load, rounds: rounds,
                                quarter: quarter, jurisdictions: jurisdictions, rebuildProjections: rebuildProjections,
                                checkpointBehind: checkpointBehind,
                                sampleInterval: .milliseconds(sampleMilliseconds), quietWait: Double(quietWait),
                                commandLine: ReportText.commandLine(inEffect: "regulator \(effectiveArguments)"))
        try await BenchRun.report(on: try BenchCluster.open(keep: keep), leaveRunning: leaveRunning) { opened in
            try await Self.measure(on: opened, settings: settings, logger: logger).lines
        }
    }

    /// The options a run needs, as one value (the command itself is not `Sendable`).
    struct Settings: Sendable {
        var load: LogLoad
        var rounds: Int
        var quarter: String?
        var jurisdictions: [String]
        var rebuildProjections: Bool
        var checkpointBehind: Int
        var sampleInterval: Duration
        var quietWait: Double
        var commandLine: String
    }

    /// Migrates, loads (or reuses) the log, brings the projections to the head, settles, chooses
    /// the scope, then measures the rounds.
    private static func measure(on opened: BenchCluster, settings s: Settings, logger: Logger) async throws -> RegulatorReportText {
        let target = opened.target
        return try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            try await BenchSQL.migrate(admin, logger: logger)
            let (setup, reused) = try await load(opened, settings: s, logger: logger)
            let projections = try await RegulatorProjections.bringToHead(admin: admin, opened: opened, setup: setup,
                                                                         force: s.rebuildProjections, logger: logger)
            let checkpoint = try await BenchCheckpoint.ensure(log: log, head: setup.events, behind: s.checkpointBehind, admin: admin,
                                                              logger: logger)
            Progress.note("VACUUM (ANALYZE) report_facts.facts, period_counts, install_days, anomalies.findings; CHECKPOINT")
            let (server, facts) = try await admin.withConnection { connection in
                for table in ["report_facts.facts", "report_facts.period_counts", "report_facts.install_days", "anomalies.findings"] {
                    try await BenchSQL.execute("VACUUM (ANALYZE) \(table)", on: connection, logger: logger)
                }
                try await ServerFacts.settle(on: connection, logger: logger)
                return (try await ServerFacts.read(on: connection, logger: logger),
                        try await FactsSize.read(on: connection, logger: logger))
            }
            Progress.note("choosing the quarter and the jurisdictions")
            let scope = try await admin.withConnection { connection in
                try await RegulatorScope.choose(log: log, quarter: s.quarter, jurisdictions: s.jurisdictions,
                                                on: connection, logger: logger)
            }
            Progress.note("quarter \(scope.quarter.label) (\(scope.chosenBecause)): \(scope.quarter.events) events; "
                + "jurisdictions " + scope.jurisdictions.map { "\($0.code) (\($0.rows) report_facts rows)" }.joined(separator: ", "))
            let measuring = MachineLoad()
            let (baselines, runs) = try await rounds(target: target, dataDirectory: opened.cluster.dataDirectory, admin: admin,
                                                     scope: scope, settings: s, logger: logger)
            let busy = MachineLoad().busyPercent(since: measuring)
            return RegulatorReportText(setup: setup, reused: reused, projections: projections, checkpoint: checkpoint, server: server,
                                       facts: facts,
                                       scope: scope, baselines: baselines, runs: runs, rounds: s.rounds, machineBusyPercent: busy,
                                       commandLine: s.commandLine, clusterFolder: opened.kept ? opened.cluster.directory.path : nil,
                                       date: UTCTime.now)
        }
    }

    /// Loads the log, or finds it already loaded in a kept cluster (checked against the options).
    private static func load(_ opened: BenchCluster, settings s: Settings,
                             logger: Logger) async throws -> (RegulatorSetup, reused: Bool) {
        try await LedgerDatabase.with(opened.target, role: .application, keepRunning: true, logger: logger) { app in
            let store = EventStore(pool: app, logger: logger)
            let head = try await store.head(log: log)?.position ?? 0
            if head > 0 {
                guard let setup = try RegulatorSetup.read(opened.setupFile) else {
                    throw BenchError("log \(log) in \(opened.cluster.directory.path) holds \(head) events but \(opened.setupFile) "
                        + "is missing (a load that did not finish?): remove the folder and start again")
                }
                let history = s.load.history
                guard Int64(setup.events) == head, setup.events == history.events, setup.families == history.families,
                      setup.seed == history.seed else {
                    throw BenchError("the kept cluster holds \(head) events of --events \(setup.events) --families \(setup.families) "
                        + "--seed \(setup.seed) (\(opened.setupFile)); give those, or another --keep folder")
                }
                Progress.note("log \(log) already holds \(head) events (loaded \(setup.loadedAt) in "
                    + "\(ReportText.fixed(setup.loadSeconds, 0)) s): not loading again")
                return (setup, true)
            }
            let loaded = try await LogLoader.load(s.load, log: log, store: store)
            let setup = RegulatorSetup(events: loaded.events, families: loaded.families, seed: s.load.history.seed, days: loaded.days,
                                       meanEventBytes: loaded.meanEventBytes, loadBatchSize: s.load.batchSize,
                                       loadSeconds: loaded.seconds, projectionSeconds: nil,
                                       loadedAt: UTCTime.now)
            if opened.kept { try setup.write(opened.setupFile) }
            return (setup, false)
        }
    }

    /// The measured rounds: each times the baselines, then one report per jurisdiction.
    private static func rounds(target: DatabaseTarget, dataDirectory: String, admin: LedgerPool, scope: RegulatorScope,
                               settings s: Settings, logger: Logger) async throws -> ([RegulatorBaselines.Timing], [[RegulatorRun]]) {
        var runs: [[RegulatorRun]] = scope.jurisdictions.map { _ in [] }
        let baselines = try await LedgerDatabase.with(target, role: .auditor, keepRunning: true, logger: logger) { auditor in
            try await auditor.withConnection { connection in
                Progress.note("baselines: checking plans, one untimed run each")
                var baselines = try await RegulatorBaselines.prepare(log: log, quarter: scope.quarter, on: connection, logger: logger)
                for round in 1...s.rounds {
                    Progress.note("round \(round) of \(s.rounds)")
                    if s.quietWait > 0 {
                        let (waited, others) = try await CPUShare.waitForQuiet(
                            postmasterPid: ServerProcesses.postmasterPid(dataDirectory: dataDirectory), threshold: 0.25, maxWait: s.quietWait)
                        if waited >= s.quietWait { Progress.note("  still \(ReportText.fixed(others, 2)) cores busy elsewhere; going on") }
                    }
                    try await RegulatorBaselines.round(&baselines, log: log, quarter: scope.quarter, on: connection, logger: logger)
                    for (index, jurisdiction) in scope.jurisdictions.enumerated() {
                        Progress.note("  regulator report, \(jurisdiction.code), \(scope.quarter.label)")
                        let parameters = RegulatorReport.Parameters(log: log, jurisdiction: jurisdiction.code,
                                                                    from: scope.quarter.from, to: scope.quarter.to)
                        let run = try await RegulatorRun.measure(parameters, target: target, dataDirectory: dataDirectory, admin: admin,
                                                                 sampleInterval: s.sampleInterval, logger: logger)
                        for note in run.notes { Progress.note("  NOTE from the report: \(note)") }
                        Progress.note("  regulator report, \(jurisdiction.code): \(ReportText.fixed(run.seconds, 2)) s, "
                            + "\(ReportText.grouped(Double(run.bytes))) bytes, steps "
                            + run.stepSeconds.map { ReportText.fixed($0, 2) }.joined(separator: " ")
                            + "; integrity alongside: " + (run.integritySeconds.map { ReportText.fixed($0, 2) } ?? "?") + " s")
                        runs[index].append(run)
                    }
                }
                return baselines
            }
        }
        return (baselines, runs)
    }

    /// The options as they took effect, defaults included.
    private var effectiveArguments: String {
        "\(loading.effective) --rounds \(rounds)"
            + (quarter.map { " --quarter \($0)" } ?? "") + jurisdictions.map { " --jurisdiction \($0)" }.joined()
            + (keep.map { " --keep \($0)" } ?? "") + (rebuildProjections ? " --rebuild-projections" : "")
            + (leaveRunning ? " --leave-running" : "") + " --sample-ms \(sampleMilliseconds) --quiet-wait \(quietWait)"
    }
}
