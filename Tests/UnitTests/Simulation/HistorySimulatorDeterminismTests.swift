import LedgerCore
import Testing
import LedgerSimulation

/// The simulator is a function of its parameters: same parameters, same bytes.
@Suite struct HistorySimulatorDeterminismTests {
    @Test func sameSeedGivesTheSameBytes() {
        let first = SimulationFixtures.lines(families: 20, days: 30, seed: 7)
        let second = SimulationFixtures.lines(families: 20, days: 30, seed: 7)
        #expect(first.count > 100)
        #expect(first == second)
    }

    @Test func anotherSeedGivesAnotherHistory() {
        let first = SimulationFixtures.lines(families: 20, days: 30, seed: 7)
        let second = SimulationFixtures.lines(families: 20, days: 30, seed: 8)
        #expect(first != second)
        // Not merely reordered or renumbered: the people differ.
        let subjects = { (lines: [String]) in Set(SimulationFixtures.checked(lines).compactMap(\.subject)) }
        #expect(subjects(first).isDisjoint(with: subjects(second)))
    }

    @Test func forEachGivesTheLinesInOrder() throws {
        let simulator = try HistorySimulator(families: 5, days: 20, seed: 3)
        var collected: [String] = []
        simulator.forEach { collected.append($0) }
        #expect(!collected.isEmpty)
        #expect(collected == Array(simulator.lines()))
    }

    @Test func theLogChangesTheIdsOnly() {
        let sim = SimulationFixtures.checked(SimulationFixtures.lines(families: 10, days: 30, seed: 5, log: "sim"))
        let other = SimulationFixtures.checked(SimulationFixtures.lines(families: 10, days: 30, seed: 5, log: "tenant-b"))
        #expect(sim.count == other.count)
        #expect(sim.map(\.type) == other.map(\.type))
        #expect(sim.map(\.occurredAt) == other.map(\.occurredAt))
        #expect(sim.map(\.subject) == other.map(\.subject))
        #expect(Set(sim.map(\.eventId)).isDisjoint(with: other.map(\.eventId)))
    }

    @Test func aShorterHistoryIsAPrefixOfALongerOne() {
        let short = SimulationFixtures.lines(families: 15, days: 20, seed: 9)
        let long = SimulationFixtures.lines(families: 15, days: 35, seed: 9)
        #expect(long.count > short.count)
        #expect(Array(long.prefix(short.count)) == short)
    }

    @Test func aFamilysStoryDoesNotDependOnHowManyFamiliesThereAre() {
        let few = SimulationFixtures.lines(families: 4, days: 25, seed: 11)
        let many = SimulationFixtures.lines(families: 12, days: 25, seed: 11)
        #expect(many.count > few.count)
        #expect(Set(few).isSubset(of: Set(many)))
    }
}
