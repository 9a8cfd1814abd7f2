/// When a failed delivery is tried again (decision 0083): after 1 s, then each wait twice the last,
/// at most 10 minutes, for 24 hours from the first failure of an item; after that the subscription
/// is dead until it is replayed. A receiver down for an hour is tried about every 10 minutes and gets
/// everything, in order, at most 10 minutes after it is back. Tests shorten it.
public struct WebhookRetry: Sendable, Equatable {
    /// The wait after the first failure.
    public var first: Duration
    /// The longest wait.
    public var longest: Duration
    /// How long an item may keep failing before the subscription is dead.
    public var giveUpAfter: Duration

    /// The production policy: 1 s doubling to 10 minutes, for 24 hours.
    public static let standard = WebhookRetry(first: .seconds(1), longest: .seconds(600), giveUpAfter: .seconds(86_400))

    /// A policy from its parts.
    public init(first: Duration, longest: Duration, giveUpAfter: Duration) {
        self.first = first
        self.longest = longest
        self.giveUpAfter = giveUpAfter
    }

    /// The wait after the `failures`-th failure in a row (1 is the first).
    public func delay(afterFailures failures: Int) -> Duration {
        var wait = first
        for _ in 1..<max(1, min(failures, 64)) {
            wait *= 2
            if wait >= longest { return longest }
        }
        return min(wait, longest)
    }

    /// Seconds, for SQL's intervals.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// ``delay(afterFailures:)`` in seconds.
    public func delaySeconds(afterFailures failures: Int) -> Double { Self.seconds(delay(afterFailures: failures)) }

    /// ``giveUpAfter`` in seconds.
    public var giveUpSeconds: Double { Self.seconds(giveUpAfter) }
}
