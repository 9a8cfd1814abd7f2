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
    /// What the question would have asked about, when the app says (optional, decision 0028: an
    /// optional member keeps version 1); the topic's contents stay with the app, since no parent saw them.
    public var topic: TopicKind?
    /// A custom topic's name (only with `topic` `custom`).
    public var customTopicName: String?

    /// The kind of ``PermissionTopic`` the question had.
    public enum TopicKind: String, CatalogueValue {
        /// `SignificantAppUpdateTopic`.
        case significantAppUpdate
        /// `CommunicationTopic`.
        case communication
        /// A topic of the app's own.
        case custom
    }

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
    public init(questionId: String, error: AskError, topic: TopicKind? = nil, customTopicName: String? = nil) {
        self.questionId = questionId
        self.error = error
        self.topic = topic
        self.customTopicName = customTopicName
    }

    /// The topic as the projections and reports name it (``PermissionTopic/name``), when the app said.
    public var topicName: String? {
        guard let topic else { return nil }
        if topic == .custom, let customTopicName { return "custom:" + customTopicName }
        return topic.rawValue
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
            .optional("topic", .oneOf(TopicKind.self),
                      "What the question would have asked about (the kind of its topic), so that the register can say it; optional."),
            .optional("customTopicName", .token(.identifier), "A custom topic's name; only with `topic` `custom`."),
        ],
        rules: [
            .onlyWhen("customTopicName", other: "topic", isOneOf: ["custom"]),
            .requiredWhen("customTopicName", other: "topic", isOneOf: ["custom"]),
        ],
        examples: [
            ["questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "error": "communicationLimitsNotEnabled", "topic": "communication"],
            ["questionId": "0b7f3c2e-5a41-4d8e-9f60-2c7d1e9a8b53", "error": "notAvailable", "topic": "custom",
             "customTopicName": "liveStreaming"],
        ]
    )
}

extension PermissionQuestionFailed {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let about = p.string("customTopicName").map { " about \($0)" } ?? p.string("topic").map { " about \($0)" } ?? ""
        return "The question \(p.string("questionId") ?? "?")\(about) could not be asked: \(p.string("error") ?? "?")."
    }
}

extension PermissionQuestionFailed {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .permissionQuestionFailed(self) }
}
