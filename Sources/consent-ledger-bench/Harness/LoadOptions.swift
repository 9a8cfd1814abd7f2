import ArgumentParser

/// The options of the benchmarks that load a simulated log before they measure: the history
/// (``HistoryOptions``) and `--load-batch-size`.
struct LoadOptions<Defaults: HistoryDefaults>: ParsableArguments {
    @OptionGroup var history: HistoryOptions<Defaults>

    @Option(name: .customLong("load-batch-size"), help: "Events per ledger.append_events call while loading.")
    var loadBatchSize = 5_000

    func validate() throws {
        guard loadBatchSize >= 1 else { throw ValidationError("--load-batch-size must be at least 1") }
    }

    /// The options as one value.
    var load: LogLoad { LogLoad(history: history.history, batchSize: loadBatchSize) }

    /// `--events … --families … --seed … --load-batch-size …`, for the options in effect.
    var effective: String {
        "--events \(history.events) --families \(history.families) --seed \(history.seed) --load-batch-size \(loadBatchSize)"
    }
}

/// What ``LogLoader`` loads: a simulated history, in batches of `batchSize` events.
struct LogLoad: Sendable {
    /// The history.
    var history: SimulatedHistory
    /// Events per `ledger.append_events` call.
    var batchSize: Int
}
