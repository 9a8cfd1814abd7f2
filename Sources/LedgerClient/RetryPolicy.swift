/// When ``LedgerClient`` tries a call again, and how long it waits first.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (1: never retry).
    public var attempts: Int
    /// The pause after the first failed attempt; it doubles after each one, up to ``maxPause``.
    public var firstPause: Duration
    /// The longest pause, whatever the server's `Retry-After` says.
    public var maxPause: Duration

    /// A policy; by default 5 attempts, pauses from 0.2 s doubling to at most 5 s.
    public init(attempts: Int = 5, firstPause: Duration = .milliseconds(200), maxPause: Duration = .seconds(5)) {
        self.attempts = max(1, attempts)
        self.firstPause = firstPause
        self.maxPause = maxPause
    }

    /// Never retry.
    public static let never = RetryPolicy(attempts: 1)

    /// Whether an answer with `status` may succeed later: 503 (unavailable, overloaded) and 429
    /// (this key's share of the queue is full). Anything else is the request's own fault or final.
    public func retries(status: Int) -> Bool { status == 503 || status == 429 }

    /// The pause before attempt `attempt + 1`: the server's `Retry-After` when given, else the
    /// doubling pause with up to a quarter of jitter (so many clients do not return at once).
    public func pause(attempt: Int, retryAfter seconds: Int?) -> Duration {
        if let seconds { return min(.seconds(max(0, seconds)), maxPause) }
        let doubled = firstPause * (1 << min(attempt - 1, 16))
        let base = min(doubled, maxPause)
        return base + base * Double.random(in: 0..<0.25)
    }
}
