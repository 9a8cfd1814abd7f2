import Foundation

/// One timed step of a benchmark that runs a child process (the loader, verify, psql): its wall
/// time and the CPU the child and the PostgreSQL server used meanwhile.
struct ChildRound: Sendable {
    /// What ran (`append --bulk`, `verify`, `COPY into <table>`).
    var name: String
    var round: Int
    var events: Int
    var seconds: Double
    /// CPU seconds of the child process (the loader, psql).
    var clientCPU: Double
    /// CPU seconds of every PostgreSQL process.
    var serverCPU: Double
    /// The child's peak resident memory (KiB), when `body` reported it.
    var clientPeakKiB: Int?

    var eventsPerSecond: Double { Double(events) / seconds }

    /// Times `body` (which runs one child process to its end and may return its peak memory in KiB).
    static func measure(name: String, round: Int, events: Int, postmaster: Int?, _ body: () throws -> Int?) throws -> ChildRound {
        let clientBefore = CPUShare.ticks("self", children: true) - CPUShare.ticks("self", children: false)
        let serverBefore = serverTicks(postmaster)
        let watch = Stopwatch()
        let peak = try body()
        let seconds = watch.elapsedSeconds
        let clientAfter = CPUShare.ticks("self", children: true) - CPUShare.ticks("self", children: false)
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ChildRound(name: name, round: round, events: events, seconds: seconds,
                          clientCPU: Double(clientAfter - clientBefore) / perSecond,
                          serverCPU: Double(serverTicks(postmaster) - serverBefore) / perSecond, clientPeakKiB: peak)
    }

    /// The postmaster with its reaped children, plus the living ones.
    static func serverTicks(_ postmaster: Int?) -> Int64 {
        guard let postmaster else { return 0 }
        return CPUShare.ticks("\(postmaster)", children: true)
            + ServerProcesses.children(of: postmaster).reduce(0) { $0 + CPUShare.ticks("\($1)", children: false) }
    }

    /// `round 1: append --bulk: 12.3 s, 81,300 events/s (loader 1.10 cores, PostgreSQL 0.62)`.
    var progressLine: String {
        "round \(round): \(name): \(ReportText.fixed(seconds, 2)) s, \(ReportText.grouped(eventsPerSecond)) events/s "
            + "(client \(ReportText.fixed(clientCPU / seconds, 2)) cores, PostgreSQL \(ReportText.fixed(serverCPU / seconds, 2)))"
    }
}

extension ChildRound {
    /// The steps' names in the order they first ran, and each step's median events/s over its rounds.
    static func medians(_ rounds: [ChildRound]) -> (names: [String], medians: [String: Double]) {
        let names = rounds.reduce(into: [String]()) { if !$0.contains($1.name) { $0.append($1.name) } }
        let medians = Dictionary(uniqueKeysWithValues: names.map { name in
            (name, PathTiming.median(rounds.filter { $0.name == name }.map(\.eventsPerSecond)))
        })
        return (names, medians)
    }
}
