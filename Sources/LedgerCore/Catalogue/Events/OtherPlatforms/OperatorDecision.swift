/// `OperatorDecision`: a support or compliance person overrode or annotated something.
public struct OperatorDecision: EventPayload {
    /// `OperatorDecision`.
    public static let eventType = "OperatorDecision"
    /// 1.
    public static let schemaVersion = 1

    /// The operator's pseudonym.
    public var operatorId: String
    /// An override or an annotation.
    public var decision: Decision
    /// Why, in the operator's words. Personal data: encrypted, erased with the subject.
    public var reason: String
    /// The events the decision is about.
    public var affectedEventIds: [String]?
    /// The subject the decision is about.
    public var affectedSubjectId: String?

    /// What kind of decision.
    public enum Decision: String, CatalogueValue {
        /// The operator changed the outcome (for example, closed a feature by hand).
        case override
        /// The operator added a note without changing anything.
        case annotation
    }

    /// Creates the payload.
    public init(operatorId: String, decision: Decision, reason: String, affectedEventIds: [String]? = nil,
                affectedSubjectId: String? = nil) {
        self.operatorId = operatorId
        self.decision = decision
        self.reason = reason
        self.affectedEventIds = affectedEventIds
        self.affectedSubjectId = affectedSubjectId
    }
}

extension OperatorDecision {
    /// The schema.
    public static let schema = EventSchema(
        OperatorDecision.self, group: .otherPlatformsAndPeople,
        summary: "A support or compliance person overrode or annotated something: who (a pseudonym), why (free text, "
            + "personal data) and what it affects.",
        fields: [
            .required("operatorId", .token(.pseudonym), "The operator's pseudonym."),
            .required("decision", .oneOf(Decision.self), "An override or an annotation."),
            .required("reason", .text(maxLength: 2000), "Why, in the operator's words (free text).", personal: true),
            .optional("affectedEventIds", .array(of: .token(.uuid), count: 1...100, unique: true), "The events the decision is about."),
            .optional("affectedSubjectId", .token(.pseudonym), "The subject the decision is about."),
        ],
        rules: [.atLeastOne(of: ["affectedEventIds", "affectedSubjectId"])],
        examples: [[
            "operatorId": "op_91c2", "decision": "override",
            "reason": "Parent called support: the approval was given by an older sibling.",
            "affectedEventIds": ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06"], "affectedSubjectId": "p_7f3a9c",
        ]]
    )
}

extension OperatorDecision {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "Operator \(p.string("operatorId") ?? "?") recorded an \(p.string("decision") ?? "?")"
            + " (reason sealed as personal data)"
            + (p.strings("affectedEventIds").isEmpty ? "" : " about \(p.strings("affectedEventIds").joined(separator: ", "))") + "."
    }
}

extension OperatorDecision {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .operatorDecision(self) }
}
