import Foundation
import LedgerCluster
import LedgerPostgres

/// The baseline: pgbench inserting single rows, one per transaction, into a plain table of the
/// same cluster (a uuid primary key, a timestamp, a text body of an event's size): what
/// PostgreSQL itself does with one commit per row.
struct PgbenchBaseline: Sendable {
    let cluster: LocalCluster
    let binary: String
    let scriptPath: String

    /// The table's definition; recreated before each run.
    static let table = """
        DROP TABLE IF EXISTS bench_ingest;
        CREATE TABLE bench_ingest (id uuid PRIMARY KEY, recorded_at timestamptz NOT NULL DEFAULT now(), body text NOT NULL)
        """

    /// Finds pgbench and writes its script (one INSERT of a row as long as the HTTP clients' events).
    init(cluster: LocalCluster, folder: String) throws {
        let candidates = ["/usr/bin/pgbench"] + (try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/pgbench" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("pgbench is not installed: apt-get install postgresql-contrib (or postgresql-client), then run again")
        }
        self.cluster = cluster
        binary = found
        scriptPath = folder + "/insert-one.sql"
        let body = #"{"eventId":"00000000-0000-4000-8000-000000000000","stream":"subject-p_0_0","type":"AgeRangeShared","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"p_0_0","actor":{"kind":"app"},"app":{"bundleId":"com.example.kids","appVersion":"2.3.1","platform":"iOS","osVersion":"26.1"},"jurisdiction":{"code":"US-TX","basis":"asserted"},"payload":{"lowerBound":13,"upperBound":15}}"#
        try "INSERT INTO bench_ingest (id, body) VALUES (gen_random_uuid(), '\(body)');\n"
            .write(toFile: scriptPath, atomically: true, encoding: .utf8)
    }

    /// Runs `pgbench -c clients -T seconds` and returns its transactions per second.
    /// - Parameter script: the script to run (default: the single-row insert).
    func run(clients: Int, seconds: Int, script: String? = nil) throws -> Double {
        let script = script ?? scriptPath
        let arguments = ["-n", "-M", "prepared", "-c", String(clients), "-j", String(min(clients, 2)), "-T", String(seconds),
                         "-f", script, "-h", cluster.socketDirectory, "-p", String(cluster.port), "-U", LocalCluster.superuser,
                         LocalCluster.databaseName]
        let outputPath = script + ".out"
        let status = try Self.spawnAndWait(binary, arguments, output: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
              let tps = Double(line.dropFirst("tps = ".count).prefix { $0.isNumber || $0 == "." }) else {
            throw BenchError("pgbench failed (exit \(status)):\n\(text)")
        }
        return tps
    }

    /// Runs `path` with no signal blocked or ignored, output to `output`, and waits for it.
    ///
    /// Not Foundation's `Process`: a child inherits the signal mask of the thread that spawns it,
    /// and Swift's concurrency threads block signals, so pgbench never received the SIGALRM that
    /// ends its `-T` run and went on for ever.
    static func spawnAndWait(_ path: String, _ arguments: [String], output: String) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
