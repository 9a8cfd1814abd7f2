/// `ParentalAnswerReceived`: a parent answered a PermissionKit question.
public struct ParentalAnswerReceived: EventPayload {
    /// `ParentalAnswerReceived`.
    public static let eventType = "ParentalAnswerReceived"
    /// 1.
    public static let schemaVersion = 1

    /// The question answered.
    public var questionId: String
    /// The id of the choice taken.
    public var choiceId: String
    /// The title of the choice taken, as shown.
    public var choiceTitle: String
    /// What the choice means.
    public var answer: PermissionAnswer
    /// When the app received the answer.
    public var receivedAt: String
    /// The answering guardian's pseudonym, when the app knows it (PermissionKit does not reveal it).
    public var guardianId: String?
    /// Whether the parent answered by message or in person.
    public var channel: DecisionChannel

    /// Creates the payload.
    public init(questionId: String, choiceId: String, choiceTitle: String, answer: PermissionAnswer,
                receivedAt: String, guardianId: String? = nil, channel: DecisionChannel) {
        self.questionId = questionId
        self.choiceId = choiceId
        self.choiceTitle = choiceTitle
        self.answer = answer
        self.receivedAt = receivedAt
        self.guardianId = guardianId
        self.channel = channel
    }
}

extension ParentalAnswerReceived {
    /// The schema.
    public static let schema = EventSchema(
        ParentalAnswerReceived.self, group: .consent,
        summary: "A parent answered a PermissionKit question. An answer to a question the ledger has never seen, or after "
            + "the question expired, is still stored (and marked as an anomaly by the projections).",
        fields: [
            .required("questionId", .token(.uuid), "The question answered."),
            .required("choiceId", .token(.identifier), "The id of the choice taken."),
            .required("choiceTitle", .text(maxLength: 200), "The title of the choice taken, as shown."),
            .required("answer", .oneOf(PermissionAnswer.self), "What the choice means."),
            .required("receivedAt", .token(.timestamp), "When the app received the answer."),
            .optional("guardianId", .token(.pseudonym),
                      "The answering guardian's pseudonym, when the app knows it; PermissionKit does not reveal it."),
            .required("channel", .oneOf(DecisionChannel.self), "Whether the parent answered by message or in person."),
        ],
        examples: [[
            "questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "choiceId": "allow", "choiceTitle": "Allow",
            "answer": "approval", "receivedAt": "2026-11-20T18:41:03Z", "guardianId": "g_2b81d4", "channel": "message",
        ]]
    )
}

extension ParentalAnswerReceived {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "A parent answered question \(p.string("questionId") ?? "?"): \(p.string("answer") ?? "?") "
            + "(\"\(p.string("choiceTitle") ?? "")\"), \(EventNarrative.channel(p.string("channel"))), received \(p.string("receivedAt") ?? "?"); "
            + (p.string("guardianId").map { "guardian \($0)." } ?? "guardian not disclosed by the platform.")
    }
}

extension ParentalAnswerReceived {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .parentalAnswerReceived(self) }
}
