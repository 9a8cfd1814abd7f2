import Foundation

/// What the console's first page shows of one log (docs/console.md): its head, the newest signed
/// checkpoint and its age, events per day, each projection's lag, and the findings (violations and
/// anomalies) recorded so far.
public struct LogOverview: Sendable {
    /// The events the ledger recorded on one UTC day (its own clock, recorded_at).
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public var day: String
        /// How many.
        public var events: Int

        /// A value from its parts (the storage module reads it from rows).
        package init(day: String, events: Int) {
            self.day = day
            self.events = events
        }
    }

    /// One projection's place on the log.
    public struct Projection: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// How far it has folded the log (nil: not built, or built with another definition).
        public var position: Int64?
        /// How many events it is behind the head.
        public var lag: Int64
        /// The position it stopped at, when a fold failed there (decision 0033).
        public var stalledAt: Int64?

        /// A value from its parts (the storage module reads it from rows).
        package init(name: String, position: Int64? = nil, lag: Int64, stalledAt: Int64? = nil) {
            self.name = name
            self.position = position
            self.lag = lag
            self.stalledAt = stalledAt
        }
    }

    /// The log's head.
    public var head: LogHead
    /// The newest signed checkpoint, if any.
    public var checkpoint: StoredCheckpoint?
    /// Seconds since that checkpoint was signed, on the database's clock.
    public var checkpointAge: Int64?
    /// Events recorded per UTC day (the ledger's clock), over the ``dayWindow`` days that end with
    /// the log's newest event.
    public var days: [Day]
    /// Events per UTC day by the device's clock (occurred_at), over the ``dayWindow`` days that end
    /// with the newest day an event occurred on, among those not later than the newest day the
    /// ledger recorded (a device clock set in the future does not move the window).
    public var occurredDays: [Day]
    /// Every projection, in the catalogue's order.
    public var projections: [Projection]
    /// Rule violations recorded on the log (the anomalies projection's `rule` findings).
    public var violations: Int
    /// Surprising facts recorded on the log (its `catalogue` findings).
    public var anomalies: Int
    /// The newest recorded verification of the log.
    public var lastVerification: VerificationRecord?

    /// How many days the chart covers.
    public static let dayWindow = 30

    /// A value from its parts (the storage module reads it from rows).
    package init(
        head: LogHead,
        checkpoint: StoredCheckpoint? = nil,
        checkpointAge: Int64? = nil,
        days: [Day],
        occurredDays: [Day],
        projections: [Projection],
        violations: Int,
        anomalies: Int,
        lastVerification: VerificationRecord? = nil
    ) {
        self.head = head
        self.checkpoint = checkpoint
        self.checkpointAge = checkpointAge
        self.days = days
        self.occurredDays = occurredDays
        self.projections = projections
        self.violations = violations
        self.anomalies = anomalies
        self.lastVerification = lastVerification
    }
}
