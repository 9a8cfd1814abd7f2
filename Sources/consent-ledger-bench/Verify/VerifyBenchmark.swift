import ArgumentParser
import Foundation
import LedgerPostgres
import PostgresNIO

/// `consent-ledger-bench verify`: `consent-ledger verify` of a simulated log, run as a user runs it
/// (the binary, the embedded cluster), beside `SELECT sum(length(record))` of the same log in the
/// same run (issue 19, item 1; decision 0043); and `verify --since-checkpoint` with a checkpoint
/// behind the head.
struct VerifyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "consent-ledger verify of a simulated log beside a plain read of its records.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder and loads, with `consent-ledger append \
            --bulk` (not timed), the first --events events of a simulated history; builds and signs a checkpoint of \
            them (`consent-ledger checkpoint`), then loads --after more. Then, round by round: the baseline \
            `SELECT sum(length(record))` of the log (the planner's choice of plan), `consent-ledger verify` of the whole \
            log (events, stored Merkle tree, checkpoint), and `consent-ledger verify --since-checkpoint` (the \
            checkpoint, then the --after events). Each line gives the events per second, the CPU of the client and of \
            PostgreSQL (cores: CPU seconds per wall second) and the client's peak memory; the server backends' \
            peak memory during the verify rounds follows. The report goes to standard output, progress to standard error.
            """)

    /// `--events`, `--families`, `--seed`.
    enum Defaults: HistoryDefaults {
        static let history = HistoryDefaultValues(
            events: 1_000_000, eventsHelp: "Events in the log at its checkpoint.",
            families: 36_000, familiesHelp: "How many simulated families the events come from (consent-ledger simulate).")
    }

    @OptionGroup var history: HistoryOptions<Defaults>

    @Option(help: "Events appended after the checkpoint (what verify --since-checkpoint re-hashes).")
    var after = 100_000

    @Option(help: "Rounds; the report gives each round and the medians.")
    var rounds = 3

    @Option(help: "The consent-ledger binary (default: the one next to this benchmark).")
    var binary: String?

    @OptionGroup var cluster: ThrowawayOptions

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard after >= 0 else { throw ValidationError("--after must be 0 or more") }
    }

    static let log = "verify"

    func run() async throws {
        let logger = BenchRun.logger
        let ledger = binary ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("consent-ledger").path
        guard FileManager.default.isExecutableFile(atPath: ledger) else {
            throw BenchError("no consent-ledger binary at \(ledger): build it (swift build -c release) or give --binary")
        }
        let total = history.events + after
        try await cluster.report { throwaway in
            let folder = throwaway.cluster.directory.path
            let run = { (arguments: [String]) throws -> Int? in try ChildProcess.run(ledger, arguments + ["--data-dir", folder]) }
            Progress.note("writing \(total) simulated events from \(history.families) families")
            let source = try SimulatedEvents(count: total, families: history.families, seed: history.seed, log: Self.log)
            let bytes = try await EventsFile.write(history.events, from: source, to: folder + "/events.ndjson")
            _ = try await EventsFile.write(after, from: source, to: folder + "/after.ndjson")
            return try await LedgerDatabase.with(throwaway.target, role: .administrator, keepRunning: true, logger: logger) { admin in
                try await BenchSQL.migrate(admin, logger: logger)
                Progress.note("loading \(history.events) events (append --bulk), then signing a checkpoint, then loading \(after) more")
                _ = try run(["append", "--bulk", "--log", Self.log, "--file", folder + "/events.ndjson"])
                _ = try ChildProcess.run(ledger, ["signing-key", "create", "--name", "bench.example", "--key-file", folder + "/key"])
                _ = try run(["checkpoint", "--log", Self.log, "--key-file", folder + "/key"])
                if after > 0 { _ = try run(["append", "--bulk", "--log", Self.log, "--file", folder + "/after.ndjson"]) }
                let facts = try await admin.withConnection { connection in
                    try await connection.query("VACUUM (ANALYZE) ledger.events", logger: logger)
                    try await connection.query("VACUUM (ANALYZE) ledger.merkle_nodes", logger: logger)
                    return try await BenchSQL.integer("SELECT pg_table_size('ledger.events')", on: connection, logger: logger)
                }
                let postmaster = ServerProcesses.postmasterPid(dataDirectory: throwaway.cluster.dataDirectory)
                let auditor = throwaway.target.settings(role: .auditor).username
                var rows: [ChildRound] = []
                var backends: [BackendMemory.Peak] = []
                for round in 1...rounds {
                    try await BenchSQL.checkpoint(on: admin, logger: logger)
                    let baseline = try await Self.baseline(admin, round: round, events: total, postmaster: postmaster, logger: logger)
                    rows.append(baseline)
                    Progress.note(baseline.progressLine)
                    let memory = BackendMemory(dataDirectory: throwaway.cluster.dataDirectory, user: auditor)
                    let sampler = Task { await memory?.run(every: .milliseconds(50)) }
                    let verify = try ChildRound.measure(name: "verify", round: round, events: total, postmaster: postmaster) {
                        try run(["verify", "--log", Self.log])
                    }
                    sampler.cancel()
                    _ = await sampler.value
                    backends += memory?.result.peaks ?? []
                    rows.append(verify)
                    Progress.note(verify.progressLine)
                    let since = try ChildRound.measure(name: "verify --since-checkpoint", round: round, events: after, postmaster: postmaster) {
                        try run(["verify", "--since-checkpoint", "--log", Self.log])
                    }
                    rows.append(since)
                    Progress.note(since.progressLine)
                }
                return VerifyReport(events: history.events, after: after, fileBytes: bytes, tableBytes: facts, rounds: rows, backends: backends,
                                    commandLine: ReportText.commandLine(inEffect: "verify --events \(history.events) --families \(history.families) "
                                        + "--seed \(history.seed) --after \(after) --rounds \(rounds)" + cluster.effective)).lines
            }
        }
    }

    /// `SELECT sum(length(record))` of the log, the planner's choice of plan, timed on a
    /// connection of the owner's, with the server's CPU meanwhile.
    static func baseline(_ admin: LedgerPool, round: Int, events: Int, postmaster: Int?, logger: Logger) async throws -> ChildRound {
        try await admin.withConnection { connection in
            let serverBefore = ChildRound.serverTicks(postmaster)
            let watch = Stopwatch()
            _ = try await BenchSQL.integer("SELECT sum(length(record)) FROM ledger.events WHERE log_id = \(Self.log)",
                                           on: connection, logger: logger)
            let seconds = watch.elapsedSeconds
            let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
            return ChildRound(name: "baseline: sum(length(record))", round: round, events: events, seconds: seconds,
                              clientCPU: 0, serverCPU: Double(ChildRound.serverTicks(postmaster) - serverBefore) / perSecond)
        }
    }
}
