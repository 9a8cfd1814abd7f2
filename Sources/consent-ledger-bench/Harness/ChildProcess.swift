import Foundation

/// A child process run to its end, its standard output discarded.
enum ChildProcess {
    /// Runs `executable` with `arguments`; returns its peak resident memory in KiB (`VmHWM`, read
    /// from `/proc` every 20 ms while it runs; nil where that cannot be read); throws with the end
    /// of its standard error when it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let peak = PeakWatch(pid: process.processIdentifier)
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                + String(decoding: message.suffix(2_000), as: UTF8.self))
        }
        return peak.stop()
    }
}

/// Samples a process's `VmHWM` (the kernel's high-water mark of its resident memory) on a thread of
/// its own until stopped; the last reading before the process ends is its peak.
private final class PeakWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var peak: Int?
    private var stopped = false

    init(pid: Int32) {
        let path = "/proc/\(pid)/status"
        Thread.detachNewThread { [self] in
            while !isStopped {
                if let status = try? String(contentsOfFile: path, encoding: .utf8),
                   let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kib = Int(line.filter(\.isNumber)) {
                    record(kib)
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }
    private func record(_ kib: Int) { lock.withLock { peak = max(peak ?? 0, kib) } }

    /// Stops sampling; the peak seen.
    func stop() -> Int? {
        lock.withLock {
            stopped = true
            return peak
        }
    }
}
