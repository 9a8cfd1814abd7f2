import Foundation
import LedgerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded default: a private PostgreSQL cluster in a folder of its own (by default
/// `./.consent-ledger`, git-ignored), reached only through a Unix socket in a folder only its
/// owner can enter. Created on first use, reused afterwards.
///
/// Run as root, the server runs as the `postgres` user (PostgreSQL refuses root), and the folders
/// belong to that user; run as anyone else, everything runs as that user.
///
/// ```swift
/// let cluster = LocalCluster(directory: URL(fileURLWithPath: ".consent-ledger"))
/// let startedNow = try cluster.start()       // initdb on first use, then pg_ctl start
/// defer { if startedNow { try? cluster.stop() } }
/// ```
public struct LocalCluster: Sendable {
    /// The cluster's folder: `pgdata/` (the data directory) and `run/` (the socket) live in it.
    public let directory: URL
    /// Whether the server syncs to disk. `false` is for throwaway test clusters only.
    public let durable: Bool
    /// The port number, which only names the socket file (no TCP listener is opened).
    public let port: Int
    /// Extra server settings, as `name=value` (passed as `-c name=value`).
    public let serverSettings: [String]

    /// The database the ledger lives in.
    public static let databaseName = "consent_ledger"
    /// The superuser the cluster is created with.
    public static let superuser = "postgres"

    /// Describes a cluster in `directory`.
    public init(directory: URL, durable: Bool = true, port: Int = 5432, serverSettings: [String] = []) {
        self.directory = directory.standardizedFileURL
        self.durable = durable
        self.port = port
        self.serverSettings = serverSettings
    }

    /// The data directory.
    public var dataDirectory: String { directory.appendingPathComponent("pgdata").path }
    /// The folder holding the socket. Socket paths are limited to about 100 bytes, so a deep
    /// project folder gets its socket folder under /tmp instead, named after the project folder.
    public var socketDirectory: String {
        let local = directory.appendingPathComponent("run").path
        if local.utf8.count + 20 < 100 { return local }
        var hash: UInt64 = 1469598103934665603
        for byte in directory.path.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        return "/tmp/consent-ledger-" + String(hash, radix: 16)
    }
    /// The socket file PostgresNIO connects to.
    public var socketPath: String { socketDirectory + "/.s.PGSQL.\(port)" }
    /// The server's log file.
    public var logFile: String { dataDirectory + "/server.log" }

    /// The user the server runs as: `postgres` when we are root, nobody else otherwise.
    var serverUser: String? { geteuid() == 0 ? Self.superuser : nil }

    /// The embedded cluster for a folder, with a fallback for root: PostgreSQL runs as the
    /// `postgres` user, which may not be allowed into a project under a private home folder
    /// (`/root/…`). Then the cluster goes to `/var/tmp/consent-ledger-<hash of the folder>` and
    /// `note` says so.
    public static func forProject(folder: URL) -> (cluster: LocalCluster, note: String?) {
        let preferred = LocalCluster(directory: folder)
        guard geteuid() == 0, !canServerUserEnter(parentOf: preferred.directory) else { return (preferred, nil) }
        var hash: UInt64 = 1469598103934665603
        for byte in preferred.directory.path.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        let fallback = LocalCluster(directory: URL(fileURLWithPath: "/var/tmp/consent-ledger-" + String(hash, radix: 16)))
        return (fallback, "the postgres user cannot enter \(preferred.directory.deletingLastPathComponent().path), "
                    + "so the embedded database lives in \(fallback.directory.path) (choose another with --data-dir)")
    }

    /// Whether the `postgres` user may enter every folder above `directory`.
    static func canServerUserEnter(parentOf directory: URL) -> Bool {
        var folder = directory.deletingLastPathComponent()
        while true {
            if let existing = try? FileManager.default.attributesOfItem(atPath: folder.path),
               let mode = existing[.posixPermissions] as? Int, mode & 0o001 == 0 {
                return false
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return true }
            folder = parent
        }
    }

    /// Where the cluster stands.
    public enum Status: Sendable, Equatable {
        /// No data directory yet.
        case notCreated
        /// Created, not running.
        case stopped
        /// Running, with the postmaster's pid.
        case running(pid: Int)
    }

    /// Where the cluster stands now.
    public func status() throws(LedgerError) -> Status {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") else { return .notCreated }
        let binaries = try PostgresBinaries.locate()
        let outcome = try runTool(binaries.pgCtl, ["-D", dataDirectory, "status"])
        guard outcome.succeeded else { return .stopped }
        let pidLine = outcome.output.split(separator: "\n").first { $0.contains("PID:") }
        let pid = pidLine.flatMap { line in Int(line.split(separator: " ").last?.filter(\.isNumber) ?? "") } ?? 0
        return .running(pid: pid)
    }

    /// Creates the cluster if needed and starts it if it is not running.
    ///
    /// - Returns: `true` when this call started the server (so the caller may stop it when done).
    @discardableResult
    public func start() throws(LedgerError) -> Bool {
        let binaries = try PostgresBinaries.locate()
        try prepareFolders()
        let lock = try FolderLock(path: directory.appendingPathComponent(".lock").path)
        defer { lock.release() }
        if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
            try initialize(binaries)
        }
        if case .running = try status() { return false }
        try? FileManager.default.removeItem(atPath: socketPath + ".lock")
        let options = "-c listen_addresses='' -c unix_socket_directories='\(socketDirectory)' -c port=\(port)"
            + (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
            + serverSettings.map { " -c \($0)" }.joined()
        let outcome = try runTool(binaries.pgCtl, ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", options, "start"])
        guard outcome.succeeded else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8))?.split(separator: "\n").suffix(8).joined(separator: "\n") ?? ""
            throw LedgerError(.clusterFailure, "the embedded PostgreSQL did not start: \(outcome.output)\n\(log)",
                              hint: "Read \(logFile). To start afresh, stop any server using \(dataDirectory) and remove \(directory.path).")
        }
        return true
    }

    /// Stops the server (fast shutdown: open transactions roll back, committed work is kept).
    public func stop() throws(LedgerError) {
        guard case .running = try status() else { return }
        let binaries = try PostgresBinaries.locate()
        let outcome = try runTool(binaries.pgCtl, ["-D", dataDirectory, "-m", "fast", "-w", "-t", "60", "stop"])
        guard outcome.succeeded else {
            throw LedgerError(.clusterFailure, "the embedded PostgreSQL did not stop: \(outcome.output)",
                              hint: "Read \(logFile).")
        }
    }

    /// Asks the server for a fast shutdown (SIGINT to the postmaster, as `pg_ctl stop -m fast`
    /// sends) and returns at once, without waiting for it to finish: for a process that is about to
    /// exit, whose own connections would otherwise see the server go away under them. Open
    /// transactions roll back; committed work is kept.
    public func requestFastShutdown() {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first, let pid = pid_t(first.trimmingCharacters(in: .whitespaces)),
              pid > 1 else { return }
        kill(pid, SIGINT)
    }

    private func initialize(_ binaries: PostgresBinaries) throws(LedgerError) {
        let outcome = try runTool(binaries.initdb, ["-D", dataDirectory, "-U", Self.superuser, "--auth=trust",
                                                   "-E", "UTF8", "--locale=C", "--no-instructions"])
        guard outcome.succeeded else {
            throw LedgerError(.clusterFailure, "initdb failed: \(outcome.output)",
                              hint: "Check that \(directory.path) is writable\(serverUser.map { " by the \($0) user" } ?? ""), then try again.")
        }
    }

    private func prepareFolders() throws(LedgerError) {
        let fm = FileManager.default
        for path in [directory.path, socketDirectory] {
            do {
                try fm.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw LedgerError(.clusterFailure, "cannot create \(path): \(error.localizedDescription)",
                                  hint: "Choose a writable folder with --data-dir or CONSENT_LEDGER_HOME.")
            }
        }
        guard let user = serverUser else { return }
        guard let entry = getpwnam(user) else {
            throw LedgerError(.clusterFailure, "running as root, but there is no '\(user)' user to run PostgreSQL as (it refuses to run as root)",
                              hint: "Create one (apt-get install postgresql does), or run consent-ledger as an ordinary user.")
        }
        for path in [directory.path, socketDirectory] where chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) != 0 {
            throw LedgerError(.clusterFailure, "cannot give \(path) to the \(user) user (errno \(errno))")
        }
        let probe = try runTool("/usr/bin/test", ["-w", directory.path])
        guard probe.succeeded else {
            throw LedgerError(.clusterFailure,
                              "the \(user) user cannot reach \(directory.path): a folder above it is closed to other users",
                              hint: "Run from a folder other users may enter, or point --data-dir (CONSENT_LEDGER_HOME) somewhere like /var/tmp/consent-ledger.")
        }
    }

    private func runTool(_ executable: String, _ arguments: [String]) throws(LedgerError) -> ProcessRunner.Outcome {
        do {
            return try ProcessRunner.run(executable, arguments, asUser: serverUser)
        } catch {
            throw LedgerError(.clusterFailure, "could not run \(executable): \(error.localizedDescription)")
        }
    }
}
