import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `--as-of` and `--clock`: the moment a history is looked at.
struct AsOfOptions: ParsableArguments {
    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("A log position (1200) or an RFC 3339 time (2026-09-10T12:00:00Z), read on the ledger's clock (recordedAt) unless --clock occurred; default: the head.",
                               valueName: "position|time"))
    var asOf: String?

    @Option(help: ArgumentHelp("Which clock a time refers to: recorded (the ledger's, default) or occurred (the device's).",
                               valueName: "recorded|occurred"))
    var clock: String = "recorded"

    /// The parsed moment.
    func moment() throws -> AsOf {
        guard let clock = AsOf.Clock(rawValue: clock) else {
            throw ValidationError("--clock must be recorded or occurred, not \(self.clock)")
        }
        return try AsOf.parse(asOf, clock: clock)
    }
}

/// `--format text|json`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
