/// `PermissionQuestionSent`: the app asked a parent a PermissionKit question.
public struct PermissionQuestionSent: EventPayload {
    /// `PermissionQuestionSent`.
    public static let eventType = "PermissionQuestionSent"
    /// 1.
    public static let schemaVersion = 1

    /// The question's id (`PermissionQuestion.id`).
    public var questionId: String
    /// The significant change the question is about, when it is about one.
    public var changeId: String?
    /// What the question asks about.
    public var topic: PermissionTopic
    /// The choices offered.
    public var choices: [Choice]
    /// The id of the choice taken when nobody answers, if any.
    public var defaultChoice: String?
    /// When the question expires unanswered, if it does.
    public var expirationDate: String?
    /// How the question was put to the parent.
    public var sentVia: SentVia

    /// `PermissionChoice`: one answer the parent can give.
    public struct Choice: Codable, Sendable, Equatable {
        /// The choice's id.
        public var id: String
        /// The choice's title, as shown.
        public var title: String
        /// What the choice means.
        public var answer: PermissionAnswer

        /// Creates a choice.
        public init(id: String, title: String, answer: PermissionAnswer) {
            self.id = id
            self.title = title
            self.answer = answer
        }
    }

    /// How a question reached the parent.
    public enum SentVia: String, CatalogueValue {
        /// `AskCenter.shared.ask(_:in:)`.
        case askCenter
        /// SwiftUI's `PermissionButton`.
        case permissionButton
        /// Ask to Approve on another device.
        case askToApprove
        /// The parent answered on the child's device.
        case approveInPerson
        /// The system's acknowledgment alert.
        case acknowledgmentAlert
    }

    /// Creates the payload.
    public init(questionId: String, changeId: String? = nil, topic: PermissionTopic, choices: [Choice],
                defaultChoice: String? = nil, expirationDate: String? = nil, sentVia: SentVia) {
        self.questionId = questionId
        self.changeId = changeId
        self.topic = topic
        self.choices = choices
        self.defaultChoice = defaultChoice
        self.expirationDate = expirationDate
        self.sentVia = sentVia
    }
}

extension PermissionQuestionSent {
    /// The schema.
    public static let schema = EventSchema(
        PermissionQuestionSent.self, group: .consent,
        summary: "The app asked a parent a PermissionKit question: its topic, the choices offered, the default, "
            + "when it expires, and how it was sent.",
        fields: [
            .required("questionId", .token(.uuid), "The question's id (`PermissionQuestion.id`)."),
            .optional("changeId", .token(.identifier), "The significant change the question asks about."),
            .required("topic", PermissionTopic.fieldKind,
                      "What the question asks about: significantAppUpdate, communication or a custom topic (its name and the text shown to the parent)."),
            .required("choices", .array(of: .object([
                .required("id", .token(.identifier), "The choice's id."),
                .required("title", .text(maxLength: 200), "The choice's title, as shown."),
                .required("answer", .oneOf(PermissionAnswer.self), "What the choice means."),
            ]), count: 1...10, unique: false), "The choices offered (`PermissionChoice`)."),
            .optional("defaultChoice", .token(.identifier), "The id of the default choice."),
            .optional("expirationDate", .token(.timestamp), "When the question expires unanswered."),
            .required("sentVia", .oneOf(SentVia.self), "How the question was put to the parent."),
        ],
        rules: [
            .uniqueMembers(array: "choices", key: "id"),
            .memberReference("defaultChoice", array: "choices", key: "id"),
        ],
        examples: [
            [
                "questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318",
                "changeId": "v3.0",
                "topic": ["significantAppUpdate": ["description": "Version 3.0 adds drawing together with friends in shared rooms."]],
                "choices": [
                    ["id": "allow", "title": "Allow", "answer": "approval"],
                    ["id": "deny", "title": "Don’t Allow", "answer": "denial"],
                ],
                "defaultChoice": "deny",
                "expirationDate": "2026-11-27T16:02:25Z",
                "sentVia": "askCenter",
            ],
            [
                "questionId": "0f6d2c1a-9b8e-4d7c-a6b5-4c3d2e1f0a9b",
                "topic": ["communication": [
                    "personInformation": [
                        ["handle": ["value": "+1 555 0100", "kind": "phoneNumber"], "displayName": "Sam"],
                        ["handle": ["value": "drawbuddy42", "kind": "custom"]],
                    ],
                    "actions": ["message", "videoCall"],
                ]],
                "choices": [["id": "ok", "title": "OK", "answer": "approval"]],
                "sentVia": "permissionButton",
            ],
            [
                "questionId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                "topic": ["custom": ["name": "liveStreaming",
                                      "description": "Your child would like to start live streams that their friends can watch."]],
                "choices": [["id": "yes", "title": "Yes", "answer": "approval"], ["id": "no", "title": "No", "answer": "denial"]],
                "sentVia": "approveInPerson",
            ],
        ]
    )
}

extension PermissionQuestionSent {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        var topic = "a custom topic"
        if let t = p.value("topic")?.objectValue {
            if let update = t["significantAppUpdate"] { topic = "the significant update \"\(EventNarrative.Reader(update).string("description") ?? "")\"" }
            if t["communication"] != nil { topic = "communicating with someone (contact details sealed)" }
            if let custom = t["custom"] {
                topic = "\(EventNarrative.Reader(custom).string("name") ?? "a custom topic")"
                    + (EventNarrative.Reader(custom).value("description").map { $0 != .null } == true ? " (the text shown to the parent sealed)" : "")
            }
        }
        return "A parent was asked (question \(p.string("questionId") ?? "?"), via \(p.string("sentVia") ?? "?")) about \(topic)"
            + (p.string("changeId").map { " for change \($0)" } ?? "")
            + (p.string("expirationDate").map { "; expires \($0)" } ?? "; no expiry") + "."
    }
}

extension PermissionQuestionSent {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .permissionQuestionSent(self) }
}
