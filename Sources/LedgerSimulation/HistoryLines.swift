import LedgerCore
/// The simulated history as a lazy sequence of NDJSON lines, in the order the ledger receives them.
///
/// The iterator lives one day at a time: the apps ship that day's releases, every family lives
/// the day (deciding flows whose later events wait in the family's queue), and the events due
/// before midnight are collected, ordered by time and handed out. Memory holds the families'
/// state, their pending events and one day's events, however long the history (about 350 MB for
/// 36,000 families, whose 30 days make a million events).
public struct HistoryLines: Sequence, Sendable {
    /// The simulation.
    public let simulator: HistorySimulator

    /// Starts the history from its first day.
    public func makeIterator() -> Iterator { Iterator(simulator) }

    /// Walks the history day by day.
    public struct Iterator: IteratorProtocol {
        private let simulator: HistorySimulator
        private let startInstant: Int64
        private let endInstant: Int64
        private var world: SimulationWorld
        private var families: [SimulatedFamily]
        private var day = 0
        private var lines: [String] = []
        private var position = 0

        init(_ simulator: HistorySimulator) {
            self.simulator = simulator
            startInstant = simulator.startInstant
            endInstant = simulator.endInstant
            world = SimulationWorld(seed: simulator.seed, idSeed: simulator.idSeed)
            families = (0..<simulator.families).map {
                SimulatedFamily(index: $0, seed: simulator.seed, idSeed: simulator.idSeed, end: simulator.endInstant,
                                clockFaults: simulator.deviceClockFaults)
            }
        }

        /// The next line, or nil after the last day.
        public mutating func next() -> String? {
            while position == lines.count {
                guard day < simulator.days else { return nil }
                lines = live(day: day)
                position = 0
                day += 1
            }
            defer { position += 1 }
            return lines[position]
        }

        /// The lines of `day`, ordered by time; ties keep the order in which they were decided
        /// (the world first, then family by family, each in its own order).
        private mutating func live(day: Int) -> [String] {
            let dayStart = startInstant + Int64(day) * SimulationClock.day
            let dayEnd = Swift.min(dayStart + SimulationClock.day, endInstant)
            var due: [ScheduledLine] = []
            var order: UInt64 = 0
            world.release(day: day, dayStart: dayStart, into: &due, sequence: &order)
            for index in families.indices {
                families[index].simulate(day: day, dayStart: dayStart, world: world)
                while let item = families[index].queue.pop(before: dayEnd) {
                    order += 1
                    due.append(ScheduledLine(time: item.time, sequence: order, line: item.line))
                }
            }
            due.sort { $0.precedes($1) }
            return due.map(\.line)
        }
    }
}
