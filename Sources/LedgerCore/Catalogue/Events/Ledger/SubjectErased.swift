/// `SubjectErased`: the subject's key was destroyed (crypto-shredding). The events stay, their
/// personal fields become unreadable, and the hashes still verify.
public struct SubjectErased: EventPayload {
    /// `SubjectErased`.
    public static let eventType = "SubjectErased"
    /// 1.
    public static let schemaVersion = 1

    /// The subject whose key was destroyed.
    public var subjectId: String
    /// Why.
    public var reason: Reason
    /// The id of the destroyed key, when keys have ids.
    public var keyId: String?
    /// A reference to the request (a ticket id), never free text.
    public var requestReference: String?

    /// Why a subject was erased. A closed list: free text here would outlive the erasure in clear.
    public enum Reason: String, CatalogueValue {
        /// The subject or their guardian asked for erasure.
        case erasureRequest
        /// The retention policy required it.
        case retentionPolicy
        /// The account was closed.
        case accountClosed
        /// Consent was rescinded.
        case consentRescinded
        /// A legal obligation required it.
        case legalObligation
    }

    /// Creates the payload.
    public init(subjectId: String, reason: Reason, keyId: String? = nil, requestReference: String? = nil) {
        self.subjectId = subjectId
        self.reason = reason
        self.keyId = keyId
        self.requestReference = requestReference
    }
}

extension SubjectErased {
    /// The schema.
    public static let schema = EventSchema(
        SubjectErased.self, group: .ledger,
        summary: "The subject's key was destroyed (crypto-shredding): the events stay, their personal fields become "
            + "unreadable, and the hashes still verify. The reason is a closed list, since anything written here stays readable.",
        fields: [
            .required("subjectId", .token(.pseudonym), "The subject whose key was destroyed."),
            .required("reason", .oneOf(Reason.self), "Why."),
            .optional("keyId", .token(.identifier), "The id of the destroyed key."),
            .optional("requestReference", .token(.identifier), "A reference to the request, such as a ticket id."),
        ],
        appenders: [EventAppender(.erase, actors: ["ledger", "operator"])],
        examples: [["subjectId": "p_7f3a9c", "reason": "erasureRequest", "keyId": "key-p_7f3a9c-1", "requestReference": "TICKET-4411"]]
    )
}

extension SubjectErased {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "The subject's key was destroyed (\(p.string("reason") ?? "?")): personal fields are unreadable from now on."
    }
}

extension SubjectErased {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .subjectErased(self) }
}
