/// `AgeRangeDeclined`: the age range request was answered with `.declinedSharing`.
public struct AgeRangeDeclined: EventPayload {
    /// `AgeRangeDeclined`.
    public static let eventType = "AgeRangeDeclined"
    /// 1.
    public static let schemaVersion = 1

    /// Creates the payload (it has no fields).
    public init() {}
}

extension AgeRangeDeclined {
    /// The schema.
    public static let schema = EventSchema(
        AgeRangeDeclined.self, group: .ageRange,
        summary: "The person (or their guardian) declined to share an age range: the response was `.declinedSharing`. "
            + "The payload is empty; the envelope's causation id points at the request.",
        fields: [],
        examples: [[:]]
    )
}

extension AgeRangeDeclined {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload _: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "The person declined to share an age range."
    }
}

extension AgeRangeDeclined {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageRangeDeclined(self) }
}
