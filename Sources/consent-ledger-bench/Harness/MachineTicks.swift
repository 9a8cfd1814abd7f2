import Foundation

/// The whole machine's CPU time so far, from the `cpu` line of Linux `/proc/stat`, in clock ticks:
/// all cores' time and the busy part of it (all but idle and iowait). Zeros where /proc is not
/// available.
struct MachineTicks: Sendable {
    /// All cores' time.
    let total: Int64
    /// The part of it that was not idle (nor waiting for I/O).
    let busy: Int64

    /// The counters now.
    init() {
        let fields = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("cpu ") }?
            .split(separator: " ").dropFirst().compactMap { Int64($0) } ?? []
        total = fields.prefix(8).reduce(0, +)
        // idle and iowait are the 4th and 5th fields.
        busy = total - (fields.count > 4 ? fields[3] + fields[4] : total)
    }
}
