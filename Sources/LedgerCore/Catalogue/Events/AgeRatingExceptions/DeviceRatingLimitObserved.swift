/// `DeviceRatingLimitObserved`: the app (a marketplace) read the device's age-rating limit,
/// MarketplaceKit's `maximumAllowedAgeRating`.
public struct DeviceRatingLimitObserved: EventPayload {
    /// `DeviceRatingLimitObserved`.
    public static let eventType = "DeviceRatingLimitObserved"
    /// 1.
    public static let schemaVersion = 1

    /// The highest age rating the device allows.
    public var maximumAllowedAgeRating: AgeRatingCode

    /// Creates the payload.
    public init(maximumAllowedAgeRating: AgeRatingCode) {
        self.maximumAllowedAgeRating = maximumAllowedAgeRating
    }

    /// `ratingLabel`.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        ["ratingLabel": .string(maximumAllowedAgeRating.label)]
    }
}

extension DeviceRatingLimitObserved {
    /// The schema.
    public static let schema = EventSchema(
        DeviceRatingLimitObserved.self, group: .ageRatingExceptions,
        summary: "The app read the device's age-rating limit, MarketplaceKit's `maximumAllowedAgeRating`.",
        fields: [
            .required("maximumAllowedAgeRating", .code(AgeRatingCode.self), "The highest age rating the device allows, as a code."),
        ],
        derived: [AgeRatingCode.ratingLabelFact(from: "maximumAllowedAgeRating")],
        examples: [["maximumAllowedAgeRating": 313]]
    )
}

extension DeviceRatingLimitObserved {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload _: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        switch d.string("ratingLabel") {
        case "unrated"?: return "The device allows apps of every age rating: no limit."
        case let label: return "The device allows apps rated up to \(label ?? "?")."
        }
    }
}

extension DeviceRatingLimitObserved {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .deviceRatingLimitObserved(self) }
}
