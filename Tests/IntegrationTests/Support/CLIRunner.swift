import Foundation

/// Runs the built `consent-ledger` executable, as a user would, and captures what it printed.
enum CLIRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable `swift build` made beside the test bundle (or `$CONSENT_LEDGER_BIN`).
    static func executable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["CONSENT_LEDGER_BIN"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = root.appendingPathComponent(".build/\(configuration)/consent-ledger")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        struct NotBuilt: Error, CustomStringConvertible {
            var description: String { "consent-ledger is not built: run `swift build` (or set CONSENT_LEDGER_BIN)" }
        }
        throw NotBuilt()
    }

    /// Thrown when the tool did not end within its time limit (it is killed first).
    struct DidNotEnd: Error, CustomStringConvertible {
        let arguments: [String]
        let seconds: Int
        /// What it had written to standard error by then, when known.
        var said = ""
        var description: String {
            "consent-ledger \(arguments.joined(separator: " ")) did not end within \(seconds) s"
                + (said.isEmpty ? "" : "; its standard error:\n\(said)")
        }
    }

    /// Runs the tool with `arguments` in `directory` (default: a fresh temporary folder), feeding
    /// `input` on standard input; a run still going after `timeout` seconds is killed and throws
    /// ``DidNotEnd`` (a bound for a test that must not hang, not a speed check).
    ///
    /// The wait is on a thread of its own (``onOwnThread(_:)``), never on Swift concurrency's.
    static func run(_ arguments: [String], input: String = "", in directory: URL? = nil,
                    timeout: Int = 600) async throws -> Outcome {
        try await onOwnThread { try runBlocking(arguments, input: input, in: directory, timeout: timeout) }
    }

    /// ``run(_:input:in:timeout:)`` on the calling thread, for code already on a thread of its own.
    static func runBlocking(_ arguments: [String], input: String = "", in directory: URL? = nil,
                            timeout: Int = 600) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
        try Data(input.utf8).write(to: paths[0])
        for path in paths.dropFirst() { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? folder
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.run()
        do {
            try wait(process, arguments: arguments, timeout: timeout)
        } catch var late as DidNotEnd {
            late.said = (try? String(contentsOf: paths[2], encoding: .utf8)) ?? ""
            throw late
        }
        return Outcome(status: process.terminationStatus,
                       stdout: try String(contentsOf: paths[1], encoding: .utf8),
                       stderr: try String(contentsOf: paths[2], encoding: .utf8))
    }

    /// Runs the tool with its standard output into a pipe, reads `bytes` bytes of it and closes
    /// the pipe (as `| head -c N` does); returns the exit status and standard error.
    static func runClosingOutput(_ arguments: [String], after bytes: Int, in directory: URL? = nil) async throws -> Outcome {
        try await onOwnThread { try runClosingOutputBlocking(arguments, after: bytes, in: directory) }
    }

    private static func runClosingOutputBlocking(_ arguments: [String], after bytes: Int, in directory: URL?) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errPath = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        let pipe = Pipe()
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errPath)
        try process.run()
        try pipe.fileHandleForWriting.close()
        var read = Data()
        while read.count < bytes {
            let chunk = pipe.fileHandleForReading.readData(ofLength: bytes - read.count)
            if chunk.isEmpty { break }
            read.append(chunk)
        }
        try pipe.fileHandleForReading.close()
        do {
            try wait(process, arguments: arguments, timeout: 120)
        } catch var late as DidNotEnd {
            late.said = (try? String(contentsOf: errPath, encoding: .utf8)) ?? ""
            throw late
        }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: read, as: UTF8.self),
                       stderr: try String(contentsOf: errPath, encoding: .utf8))
    }

    /// Starts the tool with its standard output into a pipe that nobody reads, so it blocks once
    /// the pipe is full: for signalling a command in the middle of its work.
    static func start(_ arguments: [String], in directory: URL? = nil) throws -> (process: Process, stderr: URL, pipe: Pipe) {
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        let pipe = Pipe()
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errPath)
        try process.run()
        return (process, errPath, pipe)
    }

    /// Runs blocking `work` (starting a process and waiting for it) on a thread of its own, so that
    /// the wait holds none of the few threads Swift's concurrency runs every test's tasks on (two on
    /// a two-core machine): the documentation examples' waits once starved a server another test ran
    /// in the same process, whose request then timed out (ClientAndHeadersTests, in the full suite).
    /// Every wait for a process in these tests goes through here.
    static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Waits for `process`, killing it after `timeout` seconds.
    static func wait(_ process: Process, arguments: [String], timeout: Int) throws {
        let deadline = Date().addingTimeInterval(TimeInterval(timeout))
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                Thread.sleep(forTimeInterval: 1)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                throw DidNotEnd(arguments: arguments, seconds: timeout)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
    }
}
