import LedgerCore

/// One row of `report_facts.facts` (projections/report_facts/tables.sql): the facts the regulator
/// report counts, taken from one event and the events before it. Times are the event's own
/// RFC 3339 text; the database reads them as `timestamptz`, as it reads the stored columns.
public struct FactRow: Sendable, Equatable {
    /// The column `log` (snake_case in the projection's tables.sql).
    public var log: String
    /// The column `position` (snake_case in the projection's tables.sql).
    public var position: Int64
    /// The column `eventId` (snake_case in the projection's tables.sql).
    public var eventId: String
    /// The column `type` (snake_case in the projection's tables.sql).
    public var type: String
    /// The device clock (`occurredAt`): periods are cut on it.
    public var occurredAt: String
    /// The column `subject` (snake_case in the projection's tables.sql).
    public var subject: String?
    /// The envelope's app; a `ConsentRescinded`'s notification's.
    public var bundleId: String?
    /// The column `jurisdiction` (snake_case in the projection's tables.sql).
    public var jurisdiction: String?
    /// The column `environment` (snake_case in the projection's tables.sql).
    public var environment: String?
    /// `questionId`, `exceptionId` or `changeId` (``LedgerEvent/ref``).
    public var ref: String?
    /// The column `trigger` (snake_case in the projection's tables.sql).
    public var trigger: String?
    /// `AgeRangeShared`, `PlayAgeSignalReceived`: the derived `legalCategory`.
    public var category: String?
    /// `AgeRangeShared`: `ageRangeDeclaration`, `none` when absent.
    public var declaration: String?
    /// The column `playStatus` (snake_case in the projection's tables.sql).
    public var playStatus: String?
    /// The column `checkMethod` (snake_case in the projection's tables.sql).
    public var checkMethod: String?
    /// `AgeRangeShared`: its active parental controls, sorted and comma-separated (`none`);
    /// `AgeVerificationCompleted`'s outcome; `EligibilityChecked`: eligible, notEligible or the
    /// error; `InstallAttempted`'s outcome; `DeviceRatingLimitObserved`: the limit's label or
    /// `noLimit`; `StoreConsentStatusReceived`'s status.
    public var outcome: String?
    /// The column `error` (snake_case in the projection's tables.sql).
    public var error: String?
    /// A parent's answer (`approval`, `denial`) or an exception's decision (`approved`, `declined`).
    public var answer: String?
    /// A question's `sentVia`; an answer's or a decision's `channel`; the store a change was notified to.
    public var channel: String?
    /// An answer's `receivedAt`, a decision's `decidedAt`.
    public var answeredAt: String?
    /// A question's change (``ChangeDirectory/changeAskedAbout(by:)``).
    public var changeId: String?
    /// `AgeExceptionRequested`: the derived `ratingLabel`.
    public var ratedAge: String?
    /// The column `gateState` (snake_case in the projection's tables.sql).
    public var gateState: String?
    /// `SignificantChangeDeclared`: `introducedInVersion`.
    public var version: String?
    /// `SignificantChangeDeclared`: the description shown to parents.
    public var description: String?
}
