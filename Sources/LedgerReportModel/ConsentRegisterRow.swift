/// One row of the consent register: a PermissionKit question or a MarketplaceKit age-rating
/// exception, with what became of it and the evidence it rests on. Decoded from the object
/// projections/reports/consent-register/rows.sql makes of each item; its members, in the order of
/// ``CodingKeys``, are the CSV's columns.
public struct ConsentRegisterRow: Codable, Sendable, Equatable {
    /// `question` or `exception`.
    public var kind: String
    /// The questionId or exceptionId.
    public var id: String
    /// The subject's pseudonym.
    @Nullable public var subject: String?
    /// The bundle id of the app that asked (for exceptions, the marketplace).
    @Nullable public var app: String?
    /// `significantAppUpdate`, `communication`, `custom:<name>` or `ageRatingException`.
    @Nullable public var topic: String?
    /// The significant change a question asks about.
    @Nullable public var changeId: String?
    /// Exceptions: the appleItemID asked for.
    @Nullable public var ratedApp: Int?
    /// Exceptions: its age rating.
    @Nullable public var ratedAge: String?
    /// When it was asked (RFC 3339, UTC).
    @Nullable public var askedAt: String?
    /// How a question was sent (`askCenter`, `permissionButton`, …).
    @Nullable public var sentVia: String?
    /// When a question expires.
    @Nullable public var expiresAt: String?
    /// `approval`, `denial`, `expired`, `pending`, `rescinded` or `failed`.
    public var answer: String
    /// When it was answered, as the app reported it.
    @Nullable public var answeredAt: String?
    /// The guardian's pseudonym, or `not disclosed by platform`; null when unanswered.
    @Nullable public var answeredBy: String?
    /// `message` or `inPerson`.
    @Nullable public var answerChannel: String?
    /// Seconds from asking to the answer.
    @Nullable public var timeToAnswerSeconds: Int?
    /// A question that could not be asked: when the app tried.
    @Nullable public var failedAt: String?
    /// A question that could not be asked: PermissionKit's AskError case.
    @Nullable public var failedError: String?
    /// A later App Store RESCIND_CONSENT for the app.
    @Nullable public var rescindedAt: String?
    /// The position of that `ConsentRescinded`.
    @Nullable public var rescindedPosition: Int?
    /// When the ledger told the app of the rescission: a webhook receiver took it (its
    /// `WithdrawalDelivered`, decision 0084); null when it was not told, or nothing was rescinded.
    @Nullable public var toldAt: String?
    /// When the app closed the feature after the rescission (the first `AccessGateApplied` closing a
    /// feature of the app for the subject after it); null when it did not.
    @Nullable public var closedAt: String?
    /// The log positions the row rests on.
    public var evidencePositions: [Int]
    /// The ids of the events at those positions.
    public var evidenceEventIds: [String]

    /// The members, in the order of the CSV's columns (and of the schema's `required`).
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case kind, id, subject, app, topic, changeId, ratedApp, ratedAge, askedAt, sentVia, expiresAt, answer, answeredAt,
             answeredBy, answerChannel, timeToAnswerSeconds, failedAt, failedError, rescindedAt, rescindedPosition, toldAt, closedAt,
             evidencePositions, evidenceEventIds
    }

    /// The CSV header, and the members of each row in the JSON.
    public static let columns = CodingKeys.allCases.map(\.rawValue)
}
