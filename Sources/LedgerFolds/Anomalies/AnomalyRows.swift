import LedgerCore

/// The rows of the anomalies projection's lookup tables (projections/anomalies/tables.sql) that the
/// rules read: what a range's fold loads of them and what it adds. Times are text the database reads
/// as `timestamptz`; the rules never compare times in Swift (the store's statements do).
public enum AnomalyRows {
    /// `age_signals`: an age signal of a subject.
    public struct AgeSignal: Sendable {
        /// The columns `subject`, `position`, `occurredAt`, `eventId` (snake_case in the projection's tables.sql).
        public var subject: String, position: Int64, occurredAt: String, eventId: String
        /// The columns `category`, `verifiedAdult`, `approvalRequired` (snake_case in the projection's tables.sql).
        public var category: String?, verifiedAdult: Bool, approvalRequired: Bool
        /// Creates it.
        public init(subject: String, position: Int64, occurredAt: String, eventId: String, category: String?, verifiedAdult: Bool,
                    approvalRequired: Bool) {
            (self.subject, self.position, self.occurredAt, self.eventId, self.category) = (subject, position, occurredAt, eventId, category)
            (self.verifiedAdult, self.approvalRequired) = (verifiedAdult, approvalRequired)
        }
    }

    /// `requirements`: what DeclaredAgeRange told the app it must do for the subject.
    public struct Requirement: Sendable {
        /// The columns `subject`, `bundleId`, `position` (snake_case in the projection's tables.sql).
        public var subject: String, bundleId: String, position: Int64
        /// The columns `eligible`, `parentalConsent`, `adultNotification` (snake_case in the projection's tables.sql).
        public var eligible: Bool, parentalConsent: Bool, adultNotification: Bool
        /// Creates it.
        public init(subject: String, bundleId: String, position: Int64, eligible: Bool, parentalConsent: Bool,
                    adultNotification: Bool) {
            (self.subject, self.bundleId, self.position) = (subject, bundleId, position)
            (self.eligible, self.parentalConsent, self.adultNotification) = (eligible, parentalConsent, adultNotification)
        }
    }

    /// `first_seen`: the first event of a subject with an app, and its app version.
    public struct FirstSeen: Sendable {
        /// The columns `subject`, `bundleId`, `position`, `versionKey` (snake_case in the projection's tables.sql).
        public var subject: String, bundleId: String, position: Int64, versionKey: VersionKey?
        /// The columns `originalVersionKey`, `originalPosition`: the first original app version the app
        /// reported for the subject (`app.originalAppVersion`, or an acknowledgment's
        /// `originalAppVersion`), and where: the version the subject first used the app at.
        public var originalVersionKey: VersionKey?, originalPosition: Int64?
        /// Creates it.
        public init(subject: String, bundleId: String, position: Int64, versionKey: VersionKey?,
                    originalVersionKey: VersionKey? = nil, originalPosition: Int64? = nil) {
            (self.subject, self.bundleId, self.position, self.versionKey) = (subject, bundleId, position, versionKey)
            (self.originalVersionKey, self.originalPosition) = (originalVersionKey, originalPosition)
        }

        /// The version the subject first used the app at, as known before `position`.
        public func original(before position: Int64) -> VersionKey? {
            originalPosition.map { $0 < position } == true ? originalVersionKey : nil
        }
    }

    /// `declines`: the person declined to share an age range (AgeRangeDeclined).
    public struct Decline: Sendable {
        /// The columns `subject`, `position` (snake_case in the projection's tables.sql).
        public var subject: String, position: Int64
        /// Creates it.
        public init(subject: String, position: Int64) { (self.subject, self.position) = (subject, position) }
    }

    /// `changes`: a significant change as first declared.
    public struct Change: Sendable {
        /// The columns `changeId`, `bundleId`, `versionKey`, `description` (snake_case in the projection's tables.sql).
        public var changeId: String, bundleId: String?, versionKey: VersionKey?, description: String?
        /// The columns `occurredAt`, `position` (snake_case in the projection's tables.sql).
        public var occurredAt: String, position: Int64
        /// Creates it.
        public init(changeId: String, bundleId: String?, versionKey: VersionKey?, description: String?, occurredAt: String,
                    position: Int64) {
            (self.changeId, self.bundleId, self.versionKey, self.description) = (changeId, bundleId, versionKey, description)
            (self.occurredAt, self.position) = (occurredAt, position)
        }
    }

    /// `questions`: a question as first sent, and its first expiry.
    public struct Question: Sendable {
        /// The columns `questionId`, `subject`, `changeId`, `expiresAt` (snake_case in the projection's tables.sql).
        public var questionId: String, subject: String?, changeId: String?, expiresAt: String?
        /// The columns `occurredAt`, `position`, `expiredPosition` (snake_case in the projection's tables.sql).
        public var occurredAt: String, position: Int64, expiredPosition: Int64?
        /// Creates it.
        public init(questionId: String, subject: String?, changeId: String?, expiresAt: String?, occurredAt: String,
                    position: Int64, expiredPosition: Int64?) {
            (self.questionId, self.subject, self.changeId, self.expiresAt) = (questionId, subject, changeId, expiresAt)
            (self.occurredAt, self.position, self.expiredPosition) = (occurredAt, position, expiredPosition)
        }
    }

    /// `acknowledgments`: a subject's acknowledgment of a change, and whether it holds.
    public struct Acknowledgment: Sendable {
        /// The columns `subject`, `position`, `changeId`, `handledBy`, `holds` (snake_case in the projection's tables.sql).
        public var subject: String, position: Int64, changeId: String, handledBy: String, holds: Bool
        /// Creates it.
        public init(subject: String, position: Int64, changeId: String, handledBy: String, holds: Bool) {
            (self.subject, self.position, self.changeId, self.handledBy, self.holds) = (subject, position, changeId, handledBy, holds)
        }
    }

    /// `answers`: a parent's word on a change (an answer to a question about it, or a Play signal).
    public struct Answer: Sendable {
        /// The columns `subject`, `position`, `bundleId`, `changeId`, `answer` (snake_case in the projection's tables.sql).
        public var subject: String, position: Int64, bundleId: String?, changeId: String?, answer: String
        /// Creates it.
        public init(subject: String, position: Int64, bundleId: String?, changeId: String?, answer: String) {
            (self.subject, self.position, self.bundleId, self.changeId, self.answer) = (subject, position, bundleId, changeId, answer)
        }
    }

    /// `rescissions`: a parent's withdrawal of consent, and the first closing of the app's features after it.
    public struct Rescission: Sendable {
        /// The columns `position`, `eventId`, `subject`, `bundleId` (snake_case in the projection's tables.sql).
        public var position: Int64, eventId: String, subject: String, bundleId: String?
        /// The columns `rescindedAt`, `enforcementAction` (snake_case in the projection's tables.sql).
        public var rescindedAt: String, enforcementAction: String?
        /// The columns `enforcedPosition`, `enforcedEventId`, `enforcedAt` (snake_case in the projection's tables.sql).
        public var enforcedPosition: Int64?, enforcedEventId: String?, enforcedAt: String?
        /// The column `appleItemId`: the notification's `appAppleId`, the app an age-rating exception names.
        public var appleItemId: Int64?
        /// The column `reapprovedPosition`: the first approval for the app after the withdrawal (a
        /// parent's approval of a question the app asked about the subject, or an age-rating exception
        /// for it approved); until then the app may open nothing for the subject.
        public var reapprovedPosition: Int64?
        /// Creates it.
        public init(position: Int64, eventId: String, subject: String, bundleId: String?, rescindedAt: String,
                    enforcementAction: String?, enforcedPosition: Int64?, enforcedEventId: String?, enforcedAt: String?,
                    appleItemId: Int64?, reapprovedPosition: Int64?) {
            (self.position, self.eventId, self.subject, self.bundleId) = (position, eventId, subject, bundleId)
            (self.rescindedAt, self.enforcementAction) = (rescindedAt, enforcementAction)
            (self.enforcedPosition, self.enforcedEventId, self.enforcedAt) = (enforcedPosition, enforcedEventId, enforcedAt)
            (self.appleItemId, self.reapprovedPosition) = (appleItemId, reapprovedPosition)
        }

        /// Whether the withdrawal still stands at `position`: it came before, and no approval since.
        public func stands(at position: Int64) -> Bool {
            self.position < position && (reapprovedPosition.map { $0 > position } ?? true)
        }
    }

    /// `exceptions`: an age-rating exception's first request, decision and approval.
    public struct Exception: Sendable {
        /// The columns `exceptionId`, `subject`, `appleItemId` (snake_case in the projection's tables.sql).
        public var exceptionId: String, subject: String?, appleItemId: Int64?
        /// The columns `requestedPosition`, `decidedPosition`, `approvedPosition` (snake_case in the projection's tables.sql).
        public var requestedPosition: Int64?, decidedPosition: Int64?, approvedPosition: Int64?
        /// Creates it.
        public init(exceptionId: String, subject: String?, appleItemId: Int64?, requestedPosition: Int64?,
                    decidedPosition: Int64?, approvedPosition: Int64?) {
            (self.exceptionId, self.subject, self.appleItemId) = (exceptionId, subject, appleItemId)
            (self.requestedPosition, self.decidedPosition, self.approvedPosition) = (requestedPosition, decidedPosition, approvedPosition)
        }
    }

    /// `openings`: every fact the rules judged an opening on (what `explain` shows).
    public struct Opening: Sendable {
        /// The columns `position`, `subject` (snake_case in the projection's tables.sql).
        public var position: Int64, subject: String
        /// The column `age` (snake_case in the projection's tables.sql).
        public var age: AgeSignal?
        /// The latest requirement DeclaredAgeRange gave the app for the subject.
        public var requirement: Requirement?
        /// The columns `consentRequired`, `notificationRequired` (snake_case in the projection's tables.sql).
        public var consentRequired: Bool, notificationRequired: Bool
        /// The app's significant change in force, if any.
        public var change: Change?
        /// The parent's latest word on that change.
        public var word: Answer?
        /// The column `withdrawalPosition`: a withdrawal of consent for the app (App Store
        /// RESCIND_CONSENT) that still stood at the opening, no approval given since.
        public var withdrawalPosition: Int64?
        /// The column `acknowledgmentPosition` (snake_case in the projection's tables.sql).
        public var acknowledgmentPosition: Int64?
        /// The column `needsReview`: the fact the rules lacked and judged conservatively without
        /// (the version the subject first used the app at), in a sentence; nil when none was missing.
        public var needsReview: String?
    }

    /// `findings`: a rule's finding on an event. `detail` is a `format()` template: `%1$s` and
    /// `%2$s` stand for ``times`` as the database prints them, `%3$s` for the interval between
    /// them; a `%` of the text itself is `%%`. A finding with a ``condition`` is kept only when its
    /// first time is after its second (plus a year for `occurred-in-future`): the database compares.
    public struct Finding: Sendable {
        /// The columns `position`, `kind`, `eventId`, `subject`, `source` (snake_case in the projection's tables.sql).
        public var position: Int64, kind: String, eventId: String, subject: String?, source: String
        /// The column `detail` (snake_case in the projection's tables.sql).
        public var detail: String
        /// The times `%1$s` and `%2$s` stand for.
        public var times: (String?, String?) = (nil, nil)
        /// Kept only when `after` is later than `before` (the database compares).
        public var condition: (after: String, before: String)?
        /// The column `evidence` (snake_case in the projection's tables.sql).
        public var evidence: [Int64]
        /// The column `needsReview`: the fact the finding was judged without, conservatively (nil: none).
        public var needsReview: String? = nil
    }
}

extension String {
    /// The text as a literal part of a `format()` template: each `%` doubled.
    var formatLiteral: String { contains("%") ? replacingOccurrences(of: "%", with: "%%") : self }
}
