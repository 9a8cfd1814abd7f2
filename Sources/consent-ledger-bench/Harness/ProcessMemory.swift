import Foundation

/// The benchmark process's own memory use, from `/proc/self/status` (Linux).
enum ProcessMemory {
    /// The peak resident set size (`VmHWM`) in kibibytes, or nil where /proc is not available.
    static func peakResidentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
        }
        return nil
    }
}
