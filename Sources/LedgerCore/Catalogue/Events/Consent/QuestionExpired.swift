/// `QuestionExpired`: a PermissionKit question passed its `expirationDate` unanswered.
public struct QuestionExpired: EventPayload {
    /// `QuestionExpired`.
    public static let eventType = "QuestionExpired"
    /// 1.
    public static let schemaVersion = 1

    /// The question.
    public var questionId: String
    /// The expiration date it passed.
    public var expirationDate: String

    /// Creates the payload.
    public init(questionId: String, expirationDate: String) {
        self.questionId = questionId
        self.expirationDate = expirationDate
    }
}

extension QuestionExpired {
    /// The schema.
    public static let schema = EventSchema(
        QuestionExpired.self, group: .consent,
        summary: "A PermissionKit question passed its `expirationDate` unanswered.",
        fields: [
            .required("questionId", .token(.uuid), "The question."),
            .required("expirationDate", .token(.timestamp), "The expiration date it passed."),
        ],
        examples: [["questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "expirationDate": "2026-11-27T16:02:25Z"]]
    )
}

extension QuestionExpired {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "Question \(p.string("questionId") ?? "?") expired unanswered at \(p.string("expirationDate") ?? "?")."
    }
}

extension QuestionExpired {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .questionExpired(self) }
}
