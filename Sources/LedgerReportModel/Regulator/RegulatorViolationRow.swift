/// One violation of the ledger's rules in a regulator report, with its evidence (`violations[]`).
public struct RegulatorViolationRow: Codable, Sendable, Equatable {
    /// The rule's id.
    public var rule: String
    /// What the rule says.
    public var description: String
    /// The subject.
    @Nullable public var subject: String?
    /// Whether the subject was erased.
    public var subjectErased: Bool
    /// When the event judged occurred.
    public var occurredAt: String
    /// Its position.
    public var position: Int
    /// Its id.
    public var eventId: String
    /// What was found.
    public var detail: String
    /// The fact it was judged without, conservatively; null: none.
    @Nullable public var needsReview: String?
    /// The events it rests on, in log order.
    public var evidencePositions: [Int]
    /// Their ids.
    public var evidenceEventIds: [String]

    /// A violation.
    public init(rule: String, description: String, subject: String?, subjectErased: Bool, occurredAt: String, position: Int, eventId: String,
                detail: String, needsReview: String?, evidencePositions: [Int], evidenceEventIds: [String]) {
        self.rule = rule
        self.description = description
        self.subject = subject
        self.subjectErased = subjectErased
        self.occurredAt = occurredAt
        self.position = position
        self.eventId = eventId
        self.detail = detail
        self.needsReview = needsReview
        self.evidencePositions = evidencePositions
        self.evidenceEventIds = evidenceEventIds
    }
}
