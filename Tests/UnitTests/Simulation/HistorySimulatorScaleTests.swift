import LedgerCore
import Testing
import LedgerSimulation

/// How many events the simulator writes, and how well it says so beforehand.
@Suite struct HistorySimulatorScaleTests {
    @Test(arguments: [(100, 7), (100, 30), (60, 120)])
    func theEstimateIsCloseToTheCount(families: Int, days: Int) throws {
        let simulator = try HistorySimulator(families: families, days: days, seed: 21)
        let count = simulator.lines().reduce(0) { count, _ in count + 1 }
        let estimate = simulator.estimatedEvents
        #expect(Double(abs(count - estimate)) < 0.15 * Double(count), "estimated \(estimate), simulated \(count)")
    }

    @Test func aMonthHasTenToFortyEventsPerFamily() throws {
        let simulator = try HistorySimulator(families: 100, days: 30, seed: 22)
        let count = simulator.lines().reduce(0) { count, _ in count + 1 }
        #expect((1_000...4_000).contains(count), "\(count) events for 100 families in 30 days")
    }

    @Test func theHistoryStopsAtItsEnd() throws {
        let simulator = try HistorySimulator(families: 3, days: 10, seed: 1, start: "2026-12-25T06:00:00Z")
        #expect(simulator.end == "2027-01-04T06:00:00Z")
        var iterator = simulator.lines().makeIterator()
        var count = 0
        while iterator.next() != nil { count += 1 }
        #expect(count > 0)
        #expect(iterator.next() == nil)
    }
}
