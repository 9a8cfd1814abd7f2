/// `PermissionQuestionFailed`: asking a PermissionKit question threw `AskError`.
public struct PermissionQuestionFailed: EventPayload {
    /// `PermissionQuestionFailed`.
    public static let eventType = "PermissionQuestionFailed"
    /// 1.
    public static let schemaVersion = 1

    /// The question that could not be asked.
    public var questionId: String
    /// The `AskError` case.
    public var error: AskError

    /// PermissionKit's `AskError`.
    public enum AskError: String, CatalogueValue {
        /// Communication Limits are not on for the child.
        case communicationLimitsNotEnabled
        /// Contact sync is not set up.
        case contactSyncNotSetup
        /// The question was malformed.
        case invalidQuestion
        /// Asking is not available.
        case notAvailable
        /// A system error.
        case systemError
        /// An unknown error.
        case unknown
    }

    /// Creates the payload.
    public init(questionId: String, error: AskError) {
        self.questionId = questionId
        self.error = error
    }
}

extension PermissionQuestionFailed {
    /// The schema.
    public static let schema = EventSchema(
        PermissionQuestionFailed.self, group: .consent,
        summary: "Asking a PermissionKit question failed with `AskError`; the parent was not asked.",
        fields: [
            .required("questionId", .token(.uuid), "The question that could not be asked."),
            .required("error", .oneOf(AskError.self), "The `AskError` case."),
        ],
        examples: [["questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "error": "communicationLimitsNotEnabled"]]
    )
}

extension PermissionQuestionFailed {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "The question \(p.string("questionId") ?? "?") could not be asked: \(p.string("error") ?? "?")."
    }
}

extension PermissionQuestionFailed {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .permissionQuestionFailed(self) }
}
