import ArgumentParser
import LedgerCore
import LedgerSimulation

/// `consent-ledger simulate`.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a realistic simulated history as NDJSON, ready for `append`.",
        discussion: """
            Families with children in every age band and adults (verified and not), apps with their age \
            gates and regulatory features, significant changes with questions approved, denied, expired and \
            never answered, age-rating exceptions approved by message and in person and declined, consent \
            rescinded through the App Store, Google Play signals, and a few anomalies on purpose. The same \
            parameters always give the same bytes. About \(Int(HistorySimulator.setUpEventsPerFamily)) events \
            per family to set up, then about \(HistorySimulator.eventsPerFamilyDay) per family and day.

            Example: consent-ledger simulate --families 100 --days 30 --seed 7 | consent-ledger append --log sim --batch-size 1000 -
            """)

    @Option(help: "How many families.")
    var families: Int = 10

    @Option(help: "How many days of history.")
    var days: Int = 30

    @Option(help: "The seed: the same seed gives the same history.")
    var seed: UInt64 = 1

    @Option(help: "Start of the history (UTC, YYYY-MM-DDTHH:MM:SSZ).")
    var start: String = HistorySimulator.defaultStart

    func run() async throws {
        let simulator = try HistorySimulator(families: families, days: days, seed: seed, start: start)
        Console.note("simulating \(families) families over \(days) days (seed \(seed)): about \(simulator.estimatedEvents) events")
        var output = StandardOutput()
        for line in simulator.lines() { try output.line(line) }
        try output.flush()
    }
}
