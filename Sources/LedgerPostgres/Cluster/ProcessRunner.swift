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
}
