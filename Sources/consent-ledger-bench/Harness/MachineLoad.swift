import Foundation

/// How busy the whole machine was during a measurement (Linux `/proc/stat`), so that a report can
/// say whether something else competed for the cores: a rebuild keeps about one core busy (one
/// backend, the bench mostly waiting), so on 2 cores ~50% means it ran alone.
struct MachineLoad: Sendable {
    private let ticks = MachineTicks()

    /// The counters now (zeros where /proc is not available).
    init() {}

    /// The share of all cores' time that was busy since `start`, in percent (nil without /proc).
    func busyPercent(since start: MachineLoad) -> Double? {
        let elapsed = ticks.total - start.ticks.total
        guard elapsed > 0 else { return nil }
        return 100 * Double(ticks.busy - start.ticks.busy) / Double(elapsed)
    }
}
