/// `SignificantChangeDeclared`: the app declared a significant change, the fact that makes
/// consent from parents (and notice to adults) necessary again.
public struct SignificantChangeDeclared: EventPayload {
    /// `SignificantChangeDeclared`.
    public static let eventType = "SignificantChangeDeclared"
    /// 1.
    public static let schemaVersion = 1

    /// The change's id, which questions and acknowledgments refer to.
    public var changeId: String
    /// The app version that introduces the change.
    public var introducedInVersion: String
    /// The exact description shown to parents (`SignificantAppUpdateTopic(description:)`).
    public var description: String
    /// The App Store age rating before the change.
    public var ageRatingBefore: AppStoreAgeRating
    /// The App Store age rating after the change.
    public var ageRatingAfter: AppStoreAgeRating

    /// Creates the payload.
    public init(changeId: String, introducedInVersion: String, description: String,
                ageRatingBefore: AppStoreAgeRating, ageRatingAfter: AppStoreAgeRating) {
        self.changeId = changeId
        self.introducedInVersion = introducedInVersion
        self.description = description
        self.ageRatingBefore = ageRatingBefore
        self.ageRatingAfter = ageRatingAfter
    }
}

extension SignificantChangeDeclared {
    /// The schema.
    public static let schema = EventSchema(
        SignificantChangeDeclared.self, group: .consent,
        summary: "The app declared a significant change: the version that introduces it, the exact text parents are shown, "
            + "and the App Store age rating before and after. Questions and acknowledgments refer to it by `changeId`.",
        fields: [
            .required("changeId", .token(.identifier), "The change's id (its stream is change-<changeId>)."),
            .required("introducedInVersion", .token(.version), "The app version that introduces the change."),
            .required("description", .text(maxLength: 1000),
                      "The exact description shown to parents, as passed to `SignificantAppUpdateTopic(description:)`."),
            .required("ageRatingBefore", .oneOf(AppStoreAgeRating.self), "The App Store age rating before the change."),
            .required("ageRatingAfter", .oneOf(AppStoreAgeRating.self), "The App Store age rating after the change."),
        ],
        examples: [[
            "changeId": "v3.0", "introducedInVersion": "3.0.0",
            "description": "Version 3.0 adds drawing together with friends in shared rooms.",
            "ageRatingBefore": "9+", "ageRatingAfter": "13+",
        ]]
    )
}

extension SignificantChangeDeclared {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "The app declared significant change \(p.string("changeId") ?? "?") in version "
            + "\(p.string("introducedInVersion") ?? "?") (age rating \(p.string("ageRatingBefore") ?? "?") → "
            + "\(p.string("ageRatingAfter") ?? "?")): \"\(p.string("description") ?? "")\""
    }
}

extension SignificantChangeDeclared {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .significantChangeDeclared(self) }
}
