import LedgerCore
import LedgerSimulation

/// The first `count` events of a simulated history (``HistorySimulator``), checked and
/// canonicalized as the `append` command would, handed out one batch at a time so that a million
/// events never sit in memory at once. An actor, so that the next batch can be made on one core
/// while the previous one is being appended.
actor SimulatedEvents {
    /// How many events in all.
    let count: Int
    /// The simulator's parameters.
    let families: Int
    let seed: UInt64
    let log: String
    /// The days of the history in use (longer if the first guess ran short).
    private(set) var days: Int
    /// Events handed out so far.
    private(set) var produced = 0
    /// Their canonical bytes, summed.
    private(set) var canonicalBytes = 0

    private var lines: HistoryLines.Iterator
    private var lastLine: String?

    /// Starts a history of `families` families long enough, by the simulator's estimate with a
    /// margin, to hold `count` events.
    init(count: Int, families: Int, seed: UInt64, log: String) throws {
        self.count = count
        self.families = families
        self.seed = seed
        self.log = log
        days = Self.days(for: count, families: families)
        lines = try HistorySimulator(families: families, days: days, seed: seed, log: log).lines().makeIterator()
    }

    /// The fewest days whose estimated event count (``HistorySimulator/estimatedEvents``, good to
    /// about 15%) is at least `count` plus 15%.
    static func days(for count: Int, families: Int) -> Int {
        let wanted = Int((Double(count) * 1.15).rounded(.up))
        for days in 1...HistorySimulator.maxDays {
            if let simulator = try? HistorySimulator(families: families, days: days, seed: 0),
               simulator.estimatedEvents >= wanted { return days }
        }
        return HistorySimulator.maxDays
    }

    /// The next at most `size` events; empty once `count` have been handed out.
    func nextBatch(_ size: Int) throws -> [EventInput] {
        var batch: [EventInput] = []
        batch.reserveCapacity(min(size, count - produced))
        while batch.count < size, produced < count {
            guard let line = try nextLine() else {
                throw BenchError("\(families) families over \(HistorySimulator.maxDays) days give only \(produced) events; raise --families")
            }
            let event = try EventInput(line: Array(line.utf8))
            batch.append(event)
            produced += 1
            canonicalBytes += event.canonicalBytes.count
        }
        return batch
    }

    /// The next at most `size` events as NDJSON lines, unchecked (what `append --file` reads);
    /// empty once `count` have been handed out.
    func nextLines(_ size: Int) throws -> [String] {
        var lines: [String] = []
        while lines.count < size, produced < count {
            guard let line = try nextLine() else {
                throw BenchError("\(families) families over \(HistorySimulator.maxDays) days give only \(produced) events; raise --families")
            }
            lines.append(line)
            produced += 1
        }
        return lines
    }

    /// The next line of the history. When the history ends early, goes on with one twice as long:
    /// a shorter history is a prefix of a longer one (``HistorySimulator``), which is checked.
    private func nextLine() throws -> String? {
        if let line = lines.next() {
            lastLine = line
            return line
        }
        guard days < HistorySimulator.maxDays else { return nil }
        days = min(HistorySimulator.maxDays, days * 2)
        Progress.note("the history ran out after \(produced) events; going on with \(days) days")
        var longer = try HistorySimulator(families: families, days: days, seed: seed, log: log).lines().makeIterator()
        var skipped = 0
        var previous: String?
        while skipped < produced, let line = longer.next() {
            previous = line
            skipped += 1
        }
        guard skipped == produced, previous == lastLine else {
            throw BenchError("the \(days)-day history does not start with the shorter one; raise --families instead")
        }
        lines = longer
        return try nextLine()
    }
}
