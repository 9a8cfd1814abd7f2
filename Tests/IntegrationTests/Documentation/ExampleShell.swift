import Foundation

/// Runs the shell examples of one document with bash, in order, in one folder of their own, as a
/// reader types them into one terminal: what a block exports (`export KEY=$(…)`) the next block
/// has. The built `consent-ledger` comes first on `PATH`, and the placeholders the documents use
/// are mapped to the test's own database and server.
final class ExampleShell: @unchecked Sendable {
    /// What a finished block printed.
    struct Outcome: Sendable {
        var status: Int32
        var output: String
    }

    /// The folder the blocks run in (their files, `policy.json` and the like, are written here).
    let folder: URL
    /// The environment every block gets.
    private(set) var environment: [String: String]
    /// Text the blocks use that stands for something the test made: replaced before a block runs.
    private(set) var placeholders: [(String, String)] = []
    /// The blocks running in the background, with the file they print to.
    private var background: [(process: Process, log: URL)] = []

    init(environment extra: [String: String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-examples-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        // The embedded database is not wanted here: every command goes to the test's DATABASE_URL.
        environment["CONSENT_LEDGER_HOME"] = nil
        environment["PATH"] = try CLIRunner.executable().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = folder.path
        // The test's server is local: a proxy the machine sets for curl must not stand in between.
        environment["no_proxy"] = "127.0.0.1,localhost"
        environment["NO_PROXY"] = "127.0.0.1,localhost"
        environment.merge(extra) { _, new in new }
        self.environment = environment
    }

    /// Replaces `text` with `value` in every block run from now on.
    func replace(_ text: String, with value: String) { placeholders.append((text, value)) }

    /// `code` as it will run: placeholders replaced.
    func script(_ code: String) -> String {
        placeholders.reduce(code) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// Where the variables the blocks exported are kept between blocks.
    private var exports: String { folder.appendingPathComponent(".exported").path }

    /// Runs `code` to its end (at most `timeout` seconds: a bound for a hung command, not a speed
    /// check), stopping at its first failing command, after the variables earlier blocks exported.
    func run(_ code: String, timeout: Int = 180) throws -> Outcome {
        let log = folder.appendingPathComponent(".block-\(UUID().uuidString.prefix(8)).log")
        let session = """
            set -euo pipefail
            if [ -f '\(exports)' ]; then source '\(exports)'; fi
            \(script(code))
            export -p | grep -v -E '^declare -x (PWD|OLDPWD|SHLVL|_)=' > '\(exports)'
            """
        let process = try start(session, log: log)
        try CLIRunner.wait(process, arguments: ["(a documentation example)"], timeout: timeout)
        return Outcome(status: process.terminationStatus, output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Starts `code`, one command, in the background after the variables earlier blocks exported
    /// (bash `exec`s it, so stopping the process stops the command); returns the file it prints to.
    func runInBackground(_ code: String) throws -> URL {
        let log = folder.appendingPathComponent(".background-\(background.count).log")
        let command = script(code).replacingOccurrences(of: "\\\n", with: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        let session = "if [ -f '\(exports)' ]; then source '\(exports)'; fi\nexec " + command
        background.append((try start(session, log: log), log))
        return log
    }

    /// Whether every background command is still running.
    var backgroundRunning: Bool { background.allSatisfy { $0.process.isRunning } }

    /// Stops the background commands (SIGTERM, then SIGKILL) and removes the folder, on a thread of
    /// its own: called from a `defer`, it must not hold one of Swift concurrency's threads while the
    /// commands stop.
    func close() {
        let background = self.background.map(\.process)
        let folder = self.folder
        Thread {
            for process in background where process.isRunning {
                process.terminate()
                try? CLIRunner.wait(process, arguments: ["(a background example)"], timeout: 30)
            }
            for process in background where process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: folder)
        }.start()
    }

    private func start(_ script: String, log: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return process
    }
}
