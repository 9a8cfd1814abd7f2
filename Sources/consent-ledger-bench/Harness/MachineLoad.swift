import Foundation

/// How busy the whole machine was during a measurement (Linux `/proc/stat`), so that a report can
/// say whether something else competed for the cores: a rebuild keeps about one core busy (one
/// backend, the bench mostly waiting), so on 2 cores ~50% means it ran alone.
struct MachineLoad: Sendable {
    private let busy: Int64
    private let total: Int64

    /// The counters now (zeros where /proc is not available).
    init() {
        let fields = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("cpu ") }?
            .split(separator: " ").dropFirst().compactMap { Int64($0) } ?? []
        total = fields.prefix(8).reduce(0, +)
        // idle and iowait are the 4th and 5th fields.
        busy = total - (fields.count > 4 ? fields[3] + fields[4] : total)
    }

    /// The share of all cores' time that was busy since `start`, in percent (nil without /proc).
    func busyPercent(since start: MachineLoad) -> Double? {
        let elapsed = total - start.total
        guard elapsed > 0 else { return nil }
        return 100 * Double(busy - start.busy) / Double(elapsed)
    }
}
