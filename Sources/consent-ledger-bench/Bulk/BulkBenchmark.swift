import ArgumentParser
import Foundation
import LedgerCluster
import LedgerPostgres

/// `consent-ledger-bench bulk`: `consent-ledger append --bulk --file F` of a simulated history,
/// run as a user runs it (the binary, the embedded cluster, the file), beside `COPY` of the very
/// same rows into a plain table and into one with the ledger's indexes, in the same run on one
/// throwaway cluster (issue 18, item 3; decision 0042).
struct BulkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bulk",
        abstract: "consent-ledger append --bulk --file of a simulated history beside COPY of the same rows.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder, writes the first --events events of a \
            simulated history to an NDJSON file (not timed), then, round by round: runs `consent-ledger append --bulk \
            --file` into a new log (the binary next to this one, or --binary), and psql's \\copy of the rows that load \
            stored (records, hashes and all) into bench_plain (no index) and bench_indexed (the indexes of \
            ledger.events). Each line of the report gives the events per second, the ratio to COPY, and the CPU the \
            loader and PostgreSQL used (cores: CPU seconds per wall second). The report goes to standard output, \
            progress to standard error.
            """)

    /// `--events`, `--families`, `--seed`.
    enum Defaults: HistoryDefaults {
        static let history = HistoryDefaultValues(
            events: 1_000_000, eventsHelp: "Events loaded per round.",
            families: 36_000, familiesHelp: "How many simulated families the events come from (consent-ledger simulate).")
    }

    @OptionGroup var history: HistoryOptions<Defaults>

    @Option(name: .customLong("batch-size"), help: "Events per committed batch of the load (append --batch-size).")
    var batchSize = 10_000

    @Option(help: "Rounds; the report gives each round and the medians.")
    var rounds = 2

    @Option(help: "The consent-ledger binary to load with (default: the one next to this benchmark).")
    var binary: String?

    @OptionGroup var cluster: ThrowawayOptions

    func validate() throws {
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        let loader = binary ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("consent-ledger").path
        guard FileManager.default.isExecutableFile(atPath: loader) else {
            throw BenchError("no consent-ledger binary at \(loader): build it (swift build -c release) or give --binary")
        }
        try await cluster.report { throwaway in
            let folder = throwaway.cluster.directory.path
            let file = folder + "/events.ndjson"
            Progress.note("writing \(history.events) simulated events from \(history.families) families to \(file)")
            let source = try SimulatedEvents(count: history.events, families: history.families, seed: history.seed, log: "bulk")
            let bytes = try await EventsFile.write(history.events, from: source, to: file)
            let copyFile = folder + "/rows.copy"
            let copyTool = CopyTool(cluster: throwaway.cluster)
            var rows: [ChildRound] = []
            try await LedgerDatabase.with(throwaway.target, role: .administrator, keepRunning: true, logger: logger) { admin in
                try await BenchSQL.migrate(admin, logger: logger)
                for table in PlainTable.allCases { try await table.recreate(on: admin, logger: logger) }
                let postmaster = ServerProcesses.postmasterPid(dataDirectory: throwaway.cluster.dataDirectory)
                for round in 1...rounds {
                    let log = "bulk-r\(round)"
                    try await BenchSQL.checkpoint(on: admin, logger: logger)
                    let load = try ChildRound.measure(name: "append --bulk", round: round, events: history.events, postmaster: postmaster) {
                        try ChildProcess.run(loader, ["append", "--bulk", "--log", log, "--batch-size", String(batchSize),
                                                      "--file", file, "--data-dir", folder])
                    }
                    rows.append(load)
                    Progress.note(load.progressLine)
                    if round == 1 {
                        try copyTool.run("\\copy (SELECT * FROM ledger.events WHERE log_id = '\(log)' ORDER BY position) TO '\(copyFile)'")
                    }
                    for table in PlainTable.allCases {
                        try await table.recreate(on: admin, logger: logger)
                        try await BenchSQL.checkpoint(on: admin, logger: logger)
                        let copy = try ChildRound.measure(name: "COPY into \(table.rawValue)", round: round, events: history.events,
                                                         postmaster: postmaster) {
                            try copyTool.run("\\copy \(table.qualifiedName) FROM '\(copyFile)'")
                            return nil
                        }
                        rows.append(copy)
                        Progress.note(copy.progressLine)
                    }
                }
                let stored = try await admin.withConnection { connection in
                    try await BenchSQL.integer("SELECT count(*) FROM ledger.events", on: connection, logger: logger)
                }
                guard stored == Int64(history.events * rounds) else {
                    throw BenchError("the ledger holds \(stored) events after \(rounds) loads of \(history.events)")
                }
            }
            return BulkReport(events: history.events, fileBytes: bytes, batchSize: batchSize, rounds: rows,
                              commandLine: ReportText.commandLine(inEffect: "bulk --events \(history.events) --families \(history.families) "
                                  + "--seed \(history.seed) --batch-size \(batchSize) --rounds \(rounds)" + cluster.effective)).lines
        }
    }
}

/// psql on the benchmark's cluster, as the superuser: `\copy` streams a file through the client,
/// as `append --file` does.
struct CopyTool {
    let cluster: LocalCluster

    /// Runs one psql meta-command or statement; fails with psql's message.
    func run(_ command: String) throws {
        try ChildProcess.run("/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", cluster.socketDirectory,
                                               "-p", String(cluster.port), "-U", LocalCluster.superuser,
                                               "-d", LocalCluster.databaseName, "-c", command])
    }
}
