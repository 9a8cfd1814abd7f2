import LedgerCore
import LedgerSimulation

/// The events a benchmark appends: the first `count` events of a simulated history
/// (``HistorySimulator``, the same generator `consent-ledger simulate` and the demo use), checked
/// and canonicalized as the `append` command would. The same seed gives the same events.
struct Workload: Sendable {
    /// The events, checked and canonicalized as the `append` command would.
    let events: [EventInput]
    /// Each event's `occurredAt`, in seconds since 1970 (for the plain tables' timestamp column).
    let occurredAt: [Int64]

    /// The mean size of the canonical events, in bytes.
    var meanEventBytes: Int {
        events.isEmpty ? 0 : events.reduce(0) { $0 + $1.canonicalBytes.count } / events.count
    }

    /// How many distinct streams the events use.
    var streamCount: Int { Set(events.map(\.envelope.stream)).count }

    /// The first `count` events of a simulated history of `families` families, long enough to hold
    /// them (the history is made longer until it is).
    static func generate(count: Int, families: Int, seed: UInt64) throws -> Workload {
        let perFamily = Double(count) / Double(families)
        var days = min(HistorySimulator.maxDays,
                       max(1, Int(((perFamily - HistorySimulator.setUpEventsPerFamily) / HistorySimulator.eventsPerFamilyDay * 1.3).rounded(.up))))
        while true {
            let workload = try generate(count: count, families: families, days: days, seed: seed)
            if workload.events.count == count || days == HistorySimulator.maxDays { return try workload.complete(count, families, days) }
            days = min(HistorySimulator.maxDays, days * 2)
        }
    }

    /// This workload, or an error when it is short of `count` events.
    func complete(_ count: Int, _ families: Int, _ days: Int) throws -> Workload {
        guard events.count == count else {
            throw BenchError("\(families) families over \(days) days give only \(events.count) events; raise --families")
        }
        return self
    }

    /// At most `count` events of the history of `families` families over `days` days.
    static func generate(count: Int, families: Int, days: Int, seed: UInt64) throws -> Workload {
        let simulator = try HistorySimulator(families: families, days: days, seed: seed, log: "bench")
        var events: [EventInput] = []
        var times: [Int64] = []
        events.reserveCapacity(count)
        times.reserveCapacity(count)
        for line in simulator.lines() {
            let event = try EventInput(line: Array(line.utf8))
            guard let time = UTCTime.epochSeconds(event.envelope.occurredAt) else {
                throw BenchError("the simulator wrote occurredAt \(event.envelope.occurredAt), not YYYY-MM-DDTHH:MM:SSZ")
            }
            events.append(event)
            times.append(time)
            if events.count == count { break }
        }
        return Workload(events: events, occurredAt: times)
    }
}
