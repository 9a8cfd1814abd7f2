import Foundation

/// A child process run to its end, its standard output discarded.
enum ChildProcess {
    /// Runs `executable` with `arguments`; throws with the end of its standard error when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                + String(decoding: message.suffix(2_000), as: UTF8.self))
        }
    }
}
