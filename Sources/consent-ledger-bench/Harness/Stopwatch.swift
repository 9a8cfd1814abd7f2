/// Wall-clock timing on the monotonic clock.
struct Stopwatch {
    private let start = ContinuousClock.now

    /// Starts timing now.
    init() {}

    /// Seconds since the stopwatch started.
    var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
