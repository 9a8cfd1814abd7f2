/// Questions to parents in a regulator report's period, what became of them, and rescissions
/// (`consent`).
public struct RegulatorConsentSection: Codable, Sendable, Equatable {
    /// Questions sent.
    public var questionsSent: Int
    /// Approved.
    public var approved: Int
    /// Denied.
    public var denied: Int
    /// Expired.
    public var expired: Int
    /// Could not be asked.
    public var failed: Int
    /// Still pending at the period's end.
    public var pendingAtPeriodEnd: Int
    /// The pending question asked first; null when none is pending.
    @Nullable public var oldestPending: OldestPending?
    /// How long answers took.
    public var timeToAnswer: TimeToAnswer
    /// Answers by how long they took.
    public var timeToAnswerDistribution: [Bucket]
    /// Outcomes by the week the question was sent.
    public var outcomesByWeek: [Week]
    /// The App Store's consent statuses.
    public var storeConsentStatus: [ReportKeyCount]
    /// Consent rescinded, and how fast it was enforced.
    public var rescissions: Rescissions

    /// The pending question asked first, and its age at the period's end.
    public struct OldestPending: Codable, Sendable, Equatable {
        /// The question's id.
        public var questionId: String
        /// Its subject.
        @Nullable public var subject: String?
        /// When it was asked.
        public var askedAt: String
        /// Its age at the period's end.
        public var ageSeconds: Int
        /// The positions it rests on.
        public var evidencePositions: [Int]
        /// Their ids.
        public var evidenceEventIds: [String]
    }

    /// How long answers took.
    public struct TimeToAnswer: Codable, Sendable, Equatable {
        /// Questions answered.
        public var answered: Int
        /// The median, in seconds.
        @Nullable public var medianSeconds: Int?
        /// The 95th percentile, in seconds.
        @Nullable public var p95Seconds: Int?
    }

    /// Answers that took [fromSeconds, toSeconds).
    public struct Bucket: Codable, Sendable, Equatable {
        /// The bucket in words.
        public var label: String
        /// Its start.
        public var fromSeconds: Int
        /// Its end; null: open.
        @Nullable public var toSeconds: Int?
        /// How many answers.
        public var count: Int
    }

    /// The outcomes of the questions sent in one week.
    public struct Week: Codable, Sendable, Equatable {
        /// The week's Monday.
        public var weekStart: String
        /// Sent.
        public var sent: Int
        /// Approved.
        public var approved: Int
        /// Denied.
        public var denied: Int
        /// Expired.
        public var expired: Int
        /// Failed.
        public var failed: Int
        /// Pending.
        public var pending: Int
    }

    /// Consent rescinded in the period.
    public struct Rescissions: Codable, Sendable, Equatable {
        /// How many.
        public var count: Int
        /// Enforced within the policy's window.
        public var enforcedWithinWindow: Int
        /// Enforced after it.
        public var enforcedLate: Int
        /// Never enforced.
        public var notEnforced: Int
        /// The median time to enforcement, in seconds.
        @Nullable public var medianSecondsToEnforcement: Int?
        /// The longest.
        @Nullable public var maxSecondsToEnforcement: Int?
        /// How many the ledger told the app of (a webhook receiver took the `ConsentRescinded`:
        /// a `WithdrawalDelivered`, decision 0084).
        public var told: Int
        /// The median time from the rescission to telling the app, in seconds.
        @Nullable public var medianSecondsToTell: Int?
        /// The longest.
        @Nullable public var maxSecondsToTell: Int?
        /// Each withdrawal in the period, in log order, with when the app was told and when it closed the feature.
        public var withdrawals: [Withdrawal]
    }

    /// One withdrawal of consent and its enforcement.
    public struct Withdrawal: Codable, Sendable, Equatable {
        /// The `ConsentRescinded`'s position.
        public var position: Int
        /// Its event id.
        public var eventId: String
        /// Its subject.
        @Nullable public var subject: String?
        /// Its `occurredAt`.
        public var rescindedAt: String
        /// When the ledger told the app (its `WithdrawalDelivered`); null: not told.
        @Nullable public var told: Step?
        /// When the app closed the feature (its `AccessGateApplied`); null: not closed.
        @Nullable public var closed: Step?
    }

    /// A step of a withdrawal's enforcement: the event that shows it.
    public struct Step: Codable, Sendable, Equatable {
        /// Its position.
        public var position: Int
        /// Its event id.
        public var eventId: String
        /// When (UTC): a delivery's `deliveredAt`, a gate's `occurredAt`.
        public var at: String
        /// Seconds after the rescission's `occurredAt`.
        public var secondsAfterRescission: Int
    }
}
