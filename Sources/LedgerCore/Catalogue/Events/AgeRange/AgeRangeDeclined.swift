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
