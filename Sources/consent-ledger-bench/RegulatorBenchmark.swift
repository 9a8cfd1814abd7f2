import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO
import LedgerSimulation

/// `consent-ledger-bench regulator`: the regulator report for one quarter of a simulated log of
/// ten million events (the issue aims at under 10 seconds): its wall time, the time of each of its
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

    @Option(help: "Events in the simulated log.")
    var events = 10_000_000

    @Option(help: "How many simulated families the log comes from (54,000 make 10 million events span about a year).")
    var families = 54_000

    @Option(help: "Seed of the simulated history (the same seed gives the same events).")
    var seed: UInt64 = 42

    @Option(name: .customLong("load-batch-size"), help: "Events per ledger.append_events call while loading.")
    var loadBatchSize = 5_000

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
        guard events >= 1 else { throw ValidationError("--events must be at least 1") }
        guard (1...HistorySimulator.maxFamilies).contains(families) else {
            throw ValidationError("--families must be from 1 to \(HistorySimulator.maxFamilies)")
        }
        guard loadBatchSize >= 1 else { throw ValidationError("--load-batch-size must be at least 1") }
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
        var logger = Logger(label: "consent-ledger-bench")
        logger.logLevel = .warning
        let settings = Settings(events: events, families: families, seed: seed, loadBatchSize: loadBatchSize, rounds: rounds,
                                quarter: quarter, jurisdictions: jurisdictions, rebuildProjections: rebuildProjections,
                                checkpointBehind: checkpointBehind,
                                sampleInterval: .milliseconds(sampleMilliseconds), quietWait: Double(quietWait),
                                commandLine: ReportText.typedCommandLine + "  (in effect: regulator \(effectiveArguments))")
        let opened = try RegulatorCluster.open(keep: keep)
        do {
            let report = try await Self.measure(on: opened, settings: settings, logger: logger)
            opened.finish(leaveRunning: leaveRunning)
            print(report.lines.joined(separator: "\n"))
        } catch {
            opened.finish(leaveRunning: leaveRunning)
            throw error
        }
    }

    /// The options a run needs, as one value (the command itself is not `Sendable`).
    struct Settings: Sendable {
        var events: Int
        var families: Int
        var seed: UInt64
        var loadBatchSize: Int
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
    private static func measure(on opened: RegulatorCluster, settings s: Settings, logger: Logger) async throws -> RegulatorReportText {
        let target = opened.target
        return try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            Progress.note("migrating the ledger schema")
            _ = try await Migrator(pool: admin, logger: logger).migrate()
            let (setup, reused) = try await load(opened, settings: s, logger: logger)
            let projections = try await bringProjectionsToHead(admin: admin, opened: opened, setup: setup, force: s.rebuildProjections,
                                                                logger: logger)
            let checkpoint = try await BenchCheckpoint.ensure(log: log, head: setup.events, behind: s.checkpointBehind, admin: admin,
                                                              logger: logger)
            Progress.note("VACUUM (ANALYZE) ledger.events, report_facts.facts, anomalies.findings; CHECKPOINT")
            let (server, facts) = try await admin.withConnection { connection in
                for table in ["report_facts.facts", "anomalies.findings"] {
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
                                       date: UTCTime.seconds(Int64(Date().timeIntervalSince1970)))
        }
    }

    /// Loads the log, or finds it already loaded in a kept cluster (checked against the options).
    private static func load(_ opened: RegulatorCluster, settings s: Settings,
                             logger: Logger) async throws -> (RegulatorSetup, reused: Bool) {
        try await LedgerDatabase.with(opened.target, role: .application, keepRunning: true, logger: logger) { app in
            let store = EventStore(pool: app, logger: logger)
            let head = try await store.head(log: log)?.position ?? 0
            if head > 0 {
                guard let setup = try RegulatorSetup.read(opened.setupFile) else {
                    throw BenchError("log \(log) in \(opened.cluster.directory.path) holds \(head) events but \(opened.setupFile) "
                        + "is missing (a load that did not finish?): remove the folder and start again")
                }
                guard Int64(setup.events) == head, setup.events == s.events, setup.families == s.families, setup.seed == s.seed else {
                    throw BenchError("the kept cluster holds \(head) events of --events \(setup.events) --families \(setup.families) "
                        + "--seed \(setup.seed) (\(opened.setupFile)); give those, or another --keep folder")
                }
                Progress.note("log \(log) already holds \(head) events (loaded \(setup.loadedAt) in "
                    + "\(ReportText.fixed(setup.loadSeconds, 0)) s): not loading again")
                return (setup, true)
            }
            let loaded = try await LogLoader.load(count: s.events, families: s.families, seed: s.seed, log: log,
                                                  batchSize: s.loadBatchSize, store: store)
            let setup = RegulatorSetup(events: loaded.events, families: loaded.families, seed: s.seed, days: loaded.days,
                                       meanEventBytes: loaded.meanEventBytes, loadBatchSize: s.loadBatchSize,
                                       loadSeconds: loaded.seconds, projectionSeconds: nil,
                                       loadedAt: UTCTime.seconds(Int64(Date().timeIntervalSince1970)))
            if opened.kept { try setup.write(opened.setupFile) }
            return (setup, false)
        }
    }

    /// How the projections were brought to the head.
    struct ProjectionSetup: Sendable {
        /// Seconds this run spent (nil: they were already at the head).
        var seconds: Double?
        /// Events the rebuild staged, if there was one.
        var eventsStaged: Int?
        /// Seconds of an earlier run's build, from a kept cluster's setup.
        var earlierSeconds: Double?
        /// report_facts rows and anomalies findings of the log, once at the head.
        var factsRows: Int64 = 0
        var findings: Int64 = 0
    }

    /// `project run` for report_facts and anomalies: a rebuild (one pass per projection, two
    /// connections) where they are missing, stale or `force`d, then a catch-up to the head.
    private static func bringProjectionsToHead(admin: LedgerPool, opened: RegulatorCluster, setup: RegulatorSetup, force: Bool,
                                               logger: Logger) async throws -> ProjectionSetup {
        // The projections the report reads (ReportSource.Projections.regulator).
        let definitions = try ["report_facts", "anomalies"].map { name throws(LedgerError) in try ProjectionDefinition.named(name) }
        let statuses = try await ProjectionStatus.all(pool: admin, logger: logger).filter { status in
            definitions.contains { $0.name == status.projection }
        }
        let toBuild = force ? definitions : definitions.filter { definition in
            statuses.first { $0.projection == definition.name }?.state != .current
        }
        let lag = statuses.flatMap(\.logs).reduce(0) { $0 + $1.lag }
        var result = ProjectionSetup(earlierSeconds: setup.projectionSeconds)
        if toBuild.isEmpty, lag == 0 {
            Progress.note("report_facts and anomalies are already at the head")
        } else {
            Progress.note("bringing report_facts and anomalies to the head (" + (toBuild.isEmpty ? "catch-up only"
                : "rebuilding \(toBuild.map(\.name).joined(separator: ", "))") + ")")
            try await PlainTable.execute("CHECKPOINT", on: admin, logger: logger)
            let watch = Stopwatch()
            if !toBuild.isEmpty {
                let lastNote = LastNote()
                let rebuilt = try await ProjectionRebuilder(pool: admin, logger: logger).rebuild(toBuild) { progress in
                    if !progress.isFinal, lastNote.due(every: 10) { Progress.note("  " + progress.line) }
                }
                result.eventsStaged = rebuilt.events
            }
            try await ProjectionRunner(pool: admin, logger: logger).runOnce(definitions) { Progress.note("  " + $0) }
            let seconds = watch.elapsedSeconds
            result.seconds = seconds
            Progress.note("projections at the head in \(ReportText.fixed(seconds, 1)) s")
            if opened.kept {
                var updated = setup
                updated.projectionSeconds = seconds
                try updated.write(opened.setupFile)
            }
        }
        try await admin.withConnection { connection in
            var binds = PostgresBindings(capacity: 1)
            binds.append(log)
            result.factsRows = try await BenchSQL.integer(PostgresQuery(unsafeSQL: "SELECT count(*) FROM report_facts.facts WHERE log_id = $1",
                                                                        binds: binds), on: connection, logger: logger)
            result.findings = try await BenchSQL.integer(PostgresQuery(unsafeSQL: "SELECT count(*) FROM anomalies.findings WHERE log_id = $1",
                                                                       binds: binds), on: connection, logger: logger)
        }
        return result
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
                            postmasterPid: CPUShare.postmasterPid(dataDirectory: dataDirectory), threshold: 0.25, maxWait: s.quietWait)
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
                            + run.stepSeconds.map { ReportText.fixed($0, 2) }.joined(separator: " "))
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
        "--events \(events) --families \(families) --seed \(seed) --load-batch-size \(loadBatchSize) --rounds \(rounds)"
            + (quarter.map { " --quarter \($0)" } ?? "") + jurisdictions.map { " --jurisdiction \($0)" }.joined()
            + (keep.map { " --keep \($0)" } ?? "") + (rebuildProjections ? " --rebuild-projections" : "")
            + (leaveRunning ? " --leave-running" : "") + " --sample-ms \(sampleMilliseconds) --quiet-wait \(quietWait)"
    }
}

/// Whether a progress note is due (at most one every so many seconds).
private final class LastNote: @unchecked Sendable {
    private let lock = NSLock()
    private let watch = Stopwatch()
    private var last = -Double.infinity

    func due(every seconds: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let now = watch.elapsedSeconds
        guard now - last >= seconds else { return false }
        last = now
        return true
    }
}

/// The size of `report_facts.facts` (heap and its indexes).
struct FactsSize: Sendable {
    var heapBytes: Int64 = 0
    var indexBytes: Int64 = 0
    var findingsBytes: Int64 = 0

    static func read(on connection: PostgresConnection, logger: Logger) async throws -> FactsSize {
        FactsSize(heapBytes: try await BenchSQL.integer("SELECT pg_relation_size('report_facts.facts')", on: connection, logger: logger),
                  indexBytes: try await BenchSQL.integer("SELECT pg_indexes_size('report_facts.facts')", on: connection, logger: logger),
                  findingsBytes: try await BenchSQL.integer("SELECT pg_total_relation_size('anomalies.findings')",
                                                            on: connection, logger: logger))
    }
}
