/// `AgeExceptionDecided`: a guardian approved or declined an age-rating exception. MarketplaceKit
/// drops a request from `currentAgeExceptionRequests()` once decided, so the app reports the
/// transition it observed.
public struct AgeExceptionDecided: EventPayload {
    /// `AgeExceptionDecided`.
    public static let eventType = "AgeExceptionDecided"
    /// 1.
    public static let schemaVersion = 1

    /// The exception decided.
    public var exceptionId: String
    /// The decision.
    public var decision: Decision
    /// By message, or in person on the child's device.
    public var channel: DecisionChannel
    /// When it was decided.
    public var decidedAt: String
    /// For `inPerson`: whether the guardian authenticated with their Apple Account.
    public var guardianAuthenticated: Bool?
    /// The deciding guardian's pseudonym, when the app knows it.
    public var guardianId: String?

    /// A guardian's decision on an exception.
    public enum Decision: String, CatalogueValue {
        /// The exception was granted.
        case approved
        /// The exception was refused.
        case declined
    }

    /// Creates the payload.
    public init(exceptionId: String, decision: Decision, channel: DecisionChannel, decidedAt: String,
                guardianAuthenticated: Bool? = nil, guardianId: String? = nil) {
        self.exceptionId = exceptionId
        self.decision = decision
        self.channel = channel
        self.decidedAt = decidedAt
        self.guardianAuthenticated = guardianAuthenticated
        self.guardianId = guardianId
    }
}

extension AgeExceptionDecided {
    /// The schema.
    public static let schema = EventSchema(
        AgeExceptionDecided.self, group: .ageRatingExceptions,
        summary: "A guardian approved or declined an age-rating exception, by message or in person (after "
            + "`presentAgeExceptionApproveInPersonSheet()`, with the guardian's Apple Account authentication). A second "
            + "decision on the same exception is stored and reported as an anomaly.",
        fields: [
            .required("exceptionId", .token(.identifier), "The exception decided."),
            .required("decision", .oneOf(Decision.self), "The decision."),
            .required("channel", .oneOf(DecisionChannel.self), "By message, or in person on the child's device."),
            .required("decidedAt", .token(.timestamp), "When it was decided (as the app observed the transition)."),
            .optional("guardianAuthenticated", .boolean, "For inPerson: whether the guardian authenticated with their Apple Account."),
            .optional("guardianId", .token(.pseudonym), "The deciding guardian's pseudonym, when the app knows it."),
        ],
        rules: [.onlyWhen("guardianAuthenticated", other: "channel", isOneOf: ["inPerson"])],
        examples: [
            ["exceptionId": "ex-5521", "decision": "approved", "channel": "inPerson", "decidedAt": "2026-11-21T10:19:40Z",
             "guardianAuthenticated": true, "guardianId": "g_2b81d4"],
            ["exceptionId": "ex-5522", "decision": "declined", "channel": "message", "decidedAt": "2026-11-22T08:00:00Z"],
        ]
    )
}

extension AgeExceptionDecided {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "A guardian \(p.string("decision") ?? "?") exception \(p.string("exceptionId") ?? "?"), \(EventNarrative.channel(p.string("channel")))"
            + (p.bool("guardianAuthenticated") == true ? " with Apple Account authentication" : "")
            + ", at \(p.string("decidedAt") ?? "?"); "
            + (p.string("guardianId").map { "guardian \($0)." } ?? "guardian not disclosed.")
    }
}

extension AgeExceptionDecided {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageExceptionDecided(self) }
}
