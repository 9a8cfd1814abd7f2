import LedgerCore

/// One row of `report_facts.facts` (projections/report_facts/tables.sql): the facts the regulator
/// report counts, taken from one event and the events before it. Times are the event's own
/// RFC 3339 text; the database reads them as `timestamptz`, as it reads the stored columns.
public struct FactRow: Sendable, Equatable {
    public var log: String
    public var position: Int64
    public var eventId: String
    public var type: String
    /// The device clock (`occurredAt`): periods are cut on it.
    public var occurredAt: String
    public var subject: String?
    /// The envelope's app; a `ConsentRescinded`'s notification's.
    public var bundleId: String?
    public var jurisdiction: String?
    public var environment: String?
    /// `questionId`, `exceptionId` or `changeId` (``LedgerEvent/ref``).
    public var ref: String?
    public var trigger: String?
    /// `AgeRangeShared`, `PlayAgeSignalReceived`: the derived `legalCategory`.
    public var category: String?
    /// `AgeRangeShared`: `ageRangeDeclaration`, `none` when absent.
    public var declaration: String?
    public var playStatus: String?
    public var checkMethod: String?
    public var checkOutcome: String?
    public var error: String?
    /// A parent's answer (`approval`, `denial`) or an exception's decision (`approved`, `declined`).
    public var answer: String?
    /// A question's `sentVia`; an answer's or a decision's `channel`.
    public var channel: String?
    /// An answer's `receivedAt`, a decision's `decidedAt`.
    public var answeredAt: String?
    /// A question's change (``ChangeDirectory/changeAskedAbout(by:)``).
    public var changeId: String?
    /// `AgeExceptionRequested`: the derived `ratingLabel`.
    public var ratedAge: String?
    public var gateState: String?
    /// `SignificantChangeDeclared`: `introducedInVersion`.
    public var version: String?
    /// `SignificantChangeDeclared`: the description shown to parents.
    public var description: String?
}
