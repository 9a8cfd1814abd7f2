import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion and captures what it printed.
///
/// Uses `posix_spawn` and `waitpid` directly: Foundation's `Process` can miss the exit of a
/// program that leaves a daemon behind (as `pg_ctl start` does) and wait forever. Output goes to
/// a temporary file rather than a pipe, so the daemon cannot hold the caller's pipe open either.
///
/// The child inherits standard input, output and error only: every other descriptor is closed in
/// it (`posix_spawn_file_actions_addclosefrom_np`), because `pg_ctl start` leaves the server
/// running with whatever it inherited. A server that held the read end of another thread's pipe
/// kept that pipe open after its reader had closed it, so the writer never saw EPIPE and blocked
/// (the CI run of 2026-11-29: `events | head` never ended while a test started a cluster).
struct ProcessRunner {
    /// The outcome of a run.
    struct Outcome {
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    struct SpawnError: Error, CustomStringConvertible {
        let executable: String
        let code: Int32
        var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    /// Runs `executable` with `arguments`, as `user` when given (through `runuser`, for root).
    static func run(_ executable: String, _ arguments: [String], asUser user: String? = nil) throws -> Outcome {
        var argv = [executable] + arguments
        var program = executable
        if let user {
            program = FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") ? "/usr/sbin/runuser" : "/sbin/runuser"
            argv = [program, "-u", user, "--"] + argv
        }
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("consent-ledger-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        try closeEveryOtherDescriptor(&actions)

        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw SpawnError(executable: program, code: spawned) }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SpawnError(executable: program, code: errno) }
        }
        let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Outcome(status: exitCode, output: text)
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)`: glibc has it since 2.34, but Swift's
    /// Glibc module does not show it (it is declared under `_GNU_SOURCE`), so it is looked up by
    /// name. An older C library without it leaves the descriptors inherited, as before.
    private static func closeEveryOtherDescriptor(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            let failed = closeFrom(&actions, 3)
            guard failed == 0 else { throw SpawnError(executable: "posix_spawn_file_actions_addclosefrom_np", code: failed) }
        }
    }
}
