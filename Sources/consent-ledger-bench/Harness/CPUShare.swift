import Foundation

/// Who used the machine's cores during a measurement (Linux `/proc`): this benchmark (its own
/// process and every process of the PostgreSQL server, children that have exited included) and
/// everything else. On a shared machine the report's time means little when other processes took
/// a core from it, so each round says how much they took, and a round can wait for them first.
struct CPUShare: Sendable {
    /// Clock ticks of all cores and busy ones, and ours.
    private let machine = MachineTicks()
    private let ours: Int64

    /// The counters now; `postmasterPid` names the server (nil: only this process is ours).
    init(postmasterPid: Int?) {
        var ours = Self.ticks("self", children: false)
        if let postmasterPid {
            // The postmaster with its reaped children (cutime, cstime), plus the living children.
            ours += Self.ticks("\(postmasterPid)", children: true)
            ours += ServerProcesses.children(of: postmasterPid).reduce(0) { $0 + Self.ticks("\($1)", children: false) }
        }
        self.ours = ours
    }

    /// Cores used on average since `start`: by us and by other processes (nil without /proc).
    func cores(since start: CPUShare) -> (ours: Double, others: Double)? {
        let elapsed = machine.total - start.machine.total
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        guard elapsed > 0 else { return nil }
        let perCore = Double(elapsed) / cores
        let oursUsed = Double(ours - start.ours) / perCore
        let allUsed = Double(machine.busy - start.machine.busy) / perCore
        return (oursUsed, max(0, allUsed - oursUsed))
    }

    /// Waits until other processes use less than `threshold` cores over a sample of `sample`, at
    /// most `maxWait`; returns the seconds waited and the last sample's figure.
    static func waitForQuiet(postmasterPid: Int?, threshold: Double, sample: Duration = .seconds(2),
                             maxWait: Double) async throws -> (waited: Double, others: Double) {
        let watch = Stopwatch()
        var noted = false
        while true {
            let start = CPUShare(postmasterPid: postmasterPid)
            try await Task.sleep(for: sample)
            let others = CPUShare(postmasterPid: postmasterPid).cores(since: start)?.others ?? 0
            if others < threshold || watch.elapsedSeconds >= maxWait { return (watch.elapsedSeconds, others) }
            if !noted {
                Progress.note("  other processes use \(ReportText.fixed(others, 2)) cores: waiting up to "
                    + "\(Int(maxWait)) s for the machine to be quiet (--quiet-wait)")
                noted = true
            }
        }
    }

    /// utime + stime (and, for `children`, cutime + cstime) of `/proc/<pid>/stat`, in clock ticks.
    static func ticks(_ pid: String, children: Bool) -> Int64 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After the name: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Int64 { fields.count > number - 3 ? Int64(fields[number - 3]) ?? 0 : 0 }
        return field(14) + field(15) + (children ? field(16) + field(17) : 0)
    }
}
