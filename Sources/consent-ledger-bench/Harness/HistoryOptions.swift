import ArgumentParser
import LedgerSimulation

/// A benchmark's defaults and help for `--events` and `--families` (what differs between them).
protocol HistoryDefaults {
    /// The defaults and the help.
    static var history: HistoryDefaultValues { get }
}

/// `--events` and `--families` when not given, and what they are for.
struct HistoryDefaultValues: Sendable {
    /// `--events` when not given.
    var events: Int
    /// What `--events` counts.
    var eventsHelp: String
    /// `--families` when not given.
    var families: Int
    /// What `--families` is for.
    var familiesHelp: String
}

/// `--events`, `--families`, `--seed`: the simulated history a benchmark appends or loads.
struct HistoryOptions<Defaults: HistoryDefaults>: ParsableArguments {
    @Option(help: ArgumentHelp(Defaults.history.eventsHelp))
    var events = Defaults.history.events

    @Option(help: ArgumentHelp(Defaults.history.familiesHelp))
    var families = Defaults.history.families

    @Option(help: "Seed of the simulated events (the same seed gives the same events).")
    var seed: UInt64 = 42

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be at least 1") }
        guard (1...HistorySimulator.maxFamilies).contains(families) else {
            throw ValidationError("--families must be from 1 to \(HistorySimulator.maxFamilies)")
        }
    }

    /// The options as one value.
    var history: SimulatedHistory { SimulatedHistory(events: events, families: families, seed: seed) }
}

/// A simulated history: the first `events` events of `families` families, drawn with `seed`.
struct SimulatedHistory: Sendable {
    /// How many events.
    var events: Int
    /// How many simulated families they come from.
    var families: Int
    /// The seed (the same seed gives the same events).
    var seed: UInt64
}
