import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// `consent-ledger-bench ingest`: `consent-ledger serve` taking one event per request from
/// concurrent clients (group commit on, and off), beside pgbench inserting single rows into a
/// plain table with 8 clients on the same cluster, in one run; then the latency per request at
/// half the measured throughput.
struct IngestBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "HTTP ingest throughput, one event per request, beside pgbench single-row inserts; latency at half load.",
        discussion: """
            Starts its own durable PostgreSQL cluster in a temporary folder and `consent-ledger serve` on it \
            (the binary next to this one, or --server-binary, so that two builds can be compared) as a \
            separate process, which migrates it to its own schema; then creates an ingest key. Each round then measures, one after the other: pgbench with \
            --pgbench-clients clients inserting one row per transaction into a plain table; --clients HTTP \
            clients each posting one event per request as fast as answers come (wrk by default, or the Swift \
            client), without an Idempotency-Key and then with one on every request; for each, the server's \
            CPU time per stored event and the mean number of events per transaction (by commit \
            timestamp: the cluster runs with track_commit_timestamp). Then --clients paced clients post \
            at half the median grouped throughput, and the report gives p50, p99 and max latency, counted \
            from when each request was due. At the end every acknowledged event must be in the log (with wrk, \
            by count: it cannot name the events of the requests still in flight when it stops), and \
            the server must stop cleanly on SIGTERM. Report on standard output, progress on standard error.
            """
    )

    /// What posts the requests of the throughput phases.
    enum Generator: String, ExpressibleByArgument, CaseIterable {
        /// Debian's `wrk`, in C (`WrkLoad`): little CPU per request.
        case wrk
        /// The Swift client library app backends use (`HTTPLoad`).
        case swift
    }

    @Option(help: "Concurrent HTTP clients, each with one request in flight.")
    var clients = 32

    @Option(help: "The load generator of the throughput phases: wrk (installed by tools/bench-ingest) or swift. The paced phase is always the Swift client.")
    var generator: Generator = .wrk

    @Option(name: .customLong("pgbench-clients"), help: "pgbench clients (-c).")
    var pgbenchClients = 8

    @Option(help: "Measured seconds per phase.")
    var seconds = 15

    @Option(help: "Warm-up seconds before each HTTP phase (not measured).")
    var warmup = 3

    @Option(help: "Rounds; the report gives each path's best and median.")
    var rounds = 3

    @Option(name: .customLong("load-fraction"), help: "The paced phase's rate, as a fraction of the median grouped throughput.")
    var loadFraction = 0.5

    @Option(name: .customLong("server-binary"), help: "The consent-ledger binary to serve with (default: the one next to this benchmark).")
    var serverBinary: String?

    @Flag(name: .customLong("with-projections"), help: "Let the server follow the projections while it ingests (default: --no-projections).")
    var withProjections = false

    @OptionGroup var cluster: ThrowawayOptions

    func validate() throws {
        guard clients >= 1, pgbenchClients >= 1 else { throw ValidationError("--clients and --pgbench-clients must be at least 1") }
        guard seconds >= 1, warmup >= 0, rounds >= 1 else { throw ValidationError("--seconds and --rounds must be at least 1") }
        guard loadFraction > 0, loadFraction <= 1 else { throw ValidationError("--load-fraction must be in (0, 1]") }
    }

    func run() async throws {
        let logger = BenchRun.logger
        let binary = serverBinary ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("consent-ledger").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no consent-ledger binary at \(binary): build it (swift build -c release) or give --server-binary")
        }
        // Commit timestamps, to count the transactions the events went in (savepoints have
        // transaction ids of their own, commits are one per transaction).
        try await cluster.report(serverSettings: ["track_commit_timestamp=on"]) { throwaway in
            let baseline = try PgbenchBaseline(cluster: throwaway.cluster, folder: throwaway.cluster.directory.path)
            // The server under test migrates the database to its own schema (it may be another
            // build's, to compare two builds with the same benchmark).
            let serve = try ServeProcess(binary: binary, dataDirectory: throwaway.cluster.directory.path,
                                         extra: withProjections ? [] : ["--no-projections"],
                                         logPath: throwaway.cluster.directory.path + "/serve.log")
            do {
                try await serve.waitUntilReady()
                Progress.note("serving on port \(serve.port) (\(binary))")
                let (token, version) = try await prepare(throwaway.target, logger: logger)
                let postmasterPid = ServerProcesses.postmasterPid(dataDirectory: throwaway.cluster.dataDirectory)
                var report = try await measure(throwaway.target, serve: serve, postmasterPid: postmasterPid, token: token,
                                               baseline: baseline, logger: logger,
                                               report: IngestReport(generator: generator, clients: clients,
                                                                    pgbenchClients: pgbenchClients, seconds: seconds,
                                                                    warmup: warmup, serverVersion: version, projections: withProjections,
                                                                    commandLine: CommandLine.arguments))
                report.exitStatus = serve.stop()
                try await execute("CHECKPOINT", target: throwaway.target, logger: logger)
                report.calls = try AppendCallTiming(baseline: baseline, folder: throwaway.cluster.directory.path).run(seconds: seconds)
                report.stored = try await LedgerDatabase.with(throwaway.target, role: .administrator, keepRunning: true,
                                                              logger: logger) { admin in
                    let rows = try await admin.query("SELECT count(*) FROM ledger.events WHERE log_id = 'bench'", logger: logger)
                    for try await count in rows.decode(Int64.self) { return Int(count) }
                    return 0
                }
                return report.lines
            } catch {
                serve.stop()
                throw error
            }
        }
    }

    /// The rounds (pgbench, then HTTP with group commit and without), then the paced phase.
    private func measure(_ target: DatabaseTarget, serve: ServeProcess, postmasterPid: Int?, token: String, baseline: PgbenchBaseline, logger: Logger,
                         report start: IngestReport) async throws -> IngestReport {
        var report = start
        var acknowledged = 0
        for round in 1...rounds {
            try await execute(PgbenchBaseline.table, target: target, logger: logger)
            try await execute("CHECKPOINT", target: target, logger: logger)
            let load = MachineLoad()
            let tps = try baseline.run(clients: pgbenchClients, seconds: seconds)
            report.pgbench.append(tps)
            report.busy.append(MachineLoad().busyPercent(since: load) ?? .nan)
            Progress.note("round \(round): pgbench \(pgbenchClients) clients: \(Int(tps)) rows/s")
            for ungrouped in [false, true] {
                try await execute("CHECKPOINT", target: target, logger: logger)
                let before = try await commits(target, after: 0, logger: logger).head
                let split = CPUSplit(serverPid: serve.process.processIdentifier, postmasterPid: postmasterPid)
                let phase: IngestReport.Phase
                switch generator {
                case .wrk:
                    let wrk = WrkLoad(port: serve.port, log: "bench", token: token, keyed: ungrouped)
                    var warm = WrkLoad.Outcome()
                    if warmup > 0 { warm = try wrk.run(connections: clients, seconds: warmup, nonce: UInt32.random(in: 0...UInt32.max)) }
                    let measured = try wrk.run(connections: clients, seconds: seconds, nonce: UInt32.random(in: 0...UInt32.max))
                    acknowledged += warm.created + measured.created
                    report.unnamedInFlight += clients * (warmup > 0 ? 2 : 1)
                    phase = .wrk(measured)
                case .swift:
                    let outcome = try await HTTPLoad(port: serve.port, log: "bench", token: token, ungrouped: ungrouped)
                        .closedLoop(clients: clients, warmup: Double(warmup), seconds: Double(seconds))
                    acknowledged += outcome.acknowledgedTotal
                    phase = .swift(outcome)
                }
                let cores = CPUSplit(serverPid: serve.process.processIdentifier, postmasterPid: postmasterPid).cores(since: split)
                let phaseCommits = try await commits(target, after: before, logger: logger)
                let measured = IngestReport.Measured(phase: phase, cores: cores, wallSeconds: Double(warmup + seconds),
                                                     transactions: phaseCommits.transactions, events: phaseCommits.events)
                if ungrouped { report.ungrouped.append(measured) } else { report.grouped.append(measured) }
                Progress.note("round \(round): HTTP \(clients) clients\(ungrouped ? ", Idempotency-Key on each" : ""): "
                    + "\(Int(measured.perSecond)) events/s, p50 \(IngestReport.ms(measured.p50)) ms, "
                    + "\(String(format: "%.1f", measured.meanBatch)) events per transaction"
                    + (measured.failures.isEmpty ? "" : ", failures \(measured.failures)"))
            }
        }
        let rate = IngestReport.median(report.grouped.map(\.perSecond)) * loadFraction
        try await execute("CHECKPOINT", target: target, logger: logger)
        Progress.note("paced: \(clients) clients at \(Int(rate)) events/s in all")
        let paced = try await HTTPLoad(port: serve.port, log: "bench", token: token, ungrouped: false)
            .paced(clients: clients, rate: rate, warmup: Double(warmup), seconds: Double(seconds))
        acknowledged += paced.acknowledgedTotal
        report.paced = (rate, paced)
        report.acknowledged = acknowledged
        return report
    }

    /// The events of log `bench` after position `after`, the transactions they were committed in
    /// (distinct commit timestamps), and the head.
    private func commits(_ target: DatabaseTarget, after: Int64, logger: Logger) async throws
        -> (transactions: Int, events: Int, head: Int64) {
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            let rows = try await admin.query("""
                SELECT count(DISTINCT pg_xact_commit_timestamp(xmin)), count(*), coalesce(max(position), \(after))
                  FROM ledger.events WHERE log_id = 'bench' AND position > \(after)
                """, logger: logger)
            for try await (transactions, events, head) in rows.decode((Int64, Int64, Int64).self) {
                return (Int(transactions), Int(events), head)
            }
            return (0, 0, after)
        }
    }

    /// Creates the ingest key of log `bench` (in the schema the server made), and returns it with
    /// PostgreSQL's version.
    private func prepare(_ target: DatabaseTarget, logger: Logger) async throws -> (String, String) {
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            let token = try await APIKeyStore(pool: admin, logger: logger).create(log: "bench", role: .ingest, label: "bench").1
            return (token, try await BenchSQL.serverVersion(on: admin, logger: logger))
        }
    }

    /// Runs `sql`, one or more statements separated by semicolons, as the administrator.
    private func execute(_ sql: String, target: DatabaseTarget, logger: Logger) async throws {
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, logger: logger) { admin in
            for statement in sql.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                try await BenchSQL.execute(String(statement), on: admin, logger: logger)
            }
        }
    }
}
