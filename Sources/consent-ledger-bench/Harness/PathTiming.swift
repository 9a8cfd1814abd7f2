/// The timings of one path of the benchmark: every round's wall time and every batch's.
struct PathTiming: Sendable {
    /// The name printed in the report.
    let name: String
    /// Events appended per round.
    let eventsPerRound: Int
    /// Each round's wall time, in seconds.
    private(set) var roundSeconds: [Double] = []
    /// Each batch's wall time over all rounds, in seconds.
    private(set) var batchSeconds: [Double] = []

    /// Starts with no rounds.
    init(name: String, eventsPerRound: Int) {
        self.name = name
        self.eventsPerRound = eventsPerRound
    }

    /// Records one round.
    mutating func add(round seconds: Double, batches: [Double]) {
        roundSeconds.append(seconds)
        batchSeconds += batches
    }

    /// Events per second of the fastest round.
    var bestRate: Double { Double(eventsPerRound) / (roundSeconds.min() ?? .infinity) }
    /// Events per second of the median round.
    var medianRate: Double { Double(eventsPerRound) / Self.median(roundSeconds) }
    /// The median batch's wall time, in milliseconds.
    var medianBatchMilliseconds: Double { Self.median(batchSeconds) * 1000 }
    /// The 99th-percentile batch's wall time, in milliseconds.
    var p99BatchMilliseconds: Double {
        guard !batchSeconds.isEmpty else { return .nan }
        let sorted = batchSeconds.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)] * 1000
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
