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

    /// Runs the tool with `arguments`, feeding `input` on standard input.
    static func run(_ arguments: [String], input: String = "") throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
        try Data(input.utf8).write(to: paths[0])
        for path in paths.dropFirst() { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.run()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: try String(contentsOf: paths[1], encoding: .utf8),
                       stderr: try String(contentsOf: paths[2], encoding: .utf8))
    }
}
