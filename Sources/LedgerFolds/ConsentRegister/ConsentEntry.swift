import LedgerCore

/// One row of `consent_register.entries` (projections/consent_register/tables.sql): a question or
/// an age-rating exception with its whole lifecycle. Times are text the database reads as
/// `timestamptz` (an event's RFC 3339, or a stored value as PostgreSQL printed it); the generated
/// columns (status, time to answer, evidence) are the database's.
public struct ConsentEntry: Sendable, Equatable {
    /// `question` or `exception`, and its questionId or exceptionId.
    public var kind: String, itemId: String
    public var subject: String?, bundleId: String?, topic: String?, changeId: String?
    /// An exception's `appleItemID` and its derived rating label.
    public var ratedApp: String?, ratedAge: String?
    public var askedAt: String?, askedPosition: Int64?, askedEventId: String?
    public var sentVia: String?, expiresAt: String?
    /// The first answer (`approval`, `denial`; an exception's `approved` is an approval).
    public var answer: String?, answerChannel: String?, answeredAt: String?
    public var answeredPosition: Int64?, answeredEventId: String?, answeredBy: String?
    public var guardianAuthenticated: String?
    /// Every answer received, the first included.
    public var answersReceived: Int = 0
    public var expiredAt: String?, expiredPosition: Int64?, expiredEventId: String?
    public var failedError: String?, failedPosition: Int64?, failedEventId: String?
    public var rescindedAt: String?, rescindedPosition: Int64?, rescindedEventId: String?

    /// An entry with nothing recorded yet.
    public init(kind: String, itemId: String) {
        self.kind = kind
        self.itemId = itemId
    }

    /// The entry's key.
    public var key: ConsentRegisterFold.Key { .init(kind: kind, id: itemId) }
}
