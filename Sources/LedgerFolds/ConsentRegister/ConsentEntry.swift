import LedgerCore

/// One row of `consent_register.entries` (projections/consent_register/tables.sql): a question or
/// an age-rating exception with its whole lifecycle. Times are text the database reads as
/// `timestamptz` (an event's RFC 3339, or a stored value as PostgreSQL printed it); the generated
/// columns (status, time to answer, evidence) are the database's.
public struct ConsentEntry: Sendable, Equatable {
    /// `question` or `exception`, and its questionId or exceptionId.
    public var kind: String, itemId: String
    /// The columns `subject`, `bundleId`, `topic`, `changeId` (snake_case in the projection's tables.sql).
    public var subject: String?, bundleId: String?, topic: String?, changeId: String?
    /// An exception's `appleItemID` and its derived rating label.
    public var ratedApp: String?, ratedAge: String?
    /// The columns `askedAt`, `askedPosition`, `askedEventId` (snake_case in the projection's tables.sql).
    public var askedAt: String?, askedPosition: Int64?, askedEventId: String?
    /// The columns `sentVia`, `expiresAt` (snake_case in the projection's tables.sql).
    public var sentVia: String?, expiresAt: String?
    /// The first answer (`approval`, `denial`; an exception's `approved` is an approval).
    public var answer: String?, answerChannel: String?, answeredAt: String?
    /// The columns `answeredPosition`, `answeredEventId`, `answeredBy` (snake_case in the projection's tables.sql).
    public var answeredPosition: Int64?, answeredEventId: String?, answeredBy: String?
    /// The column `guardianAuthenticated` (snake_case in the projection's tables.sql).
    public var guardianAuthenticated: String?
    /// Every answer received, the first included.
    public var answersReceived: Int = 0
    /// The columns `expiredAt`, `expiredPosition`, `expiredEventId` (snake_case in the projection's tables.sql).
    public var expiredAt: String?, expiredPosition: Int64?, expiredEventId: String?
    /// The columns `failedError`, `failedPosition`, `failedEventId`, `failedAt` (snake_case in the projection's tables.sql).
    public var failedError: String?, failedPosition: Int64?, failedEventId: String?, failedAt: String?
    /// The columns `rescindedAt`, `rescindedPosition`, `rescindedEventId` (snake_case in the projection's tables.sql).
    public var rescindedAt: String?, rescindedPosition: Int64?, rescindedEventId: String?

    /// An entry with nothing recorded yet.
    public init(kind: String, itemId: String) {
        self.kind = kind
        self.itemId = itemId
    }

    /// The entry's key.
    public var key: ConsentRegisterFold.Key { .init(kind: kind, id: itemId) }
}
