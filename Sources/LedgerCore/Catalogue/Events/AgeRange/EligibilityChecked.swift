/// `EligibilityChecked`: the app asked DeclaredAgeRange whether age features apply to the person
/// (`AgeRangeService.isEligibleForAgeFeatures`) and which regulatory features are required; or
/// the check failed with `notAvailable`.
///
/// The API returns no region: jurisdiction is whatever the app asserts in the envelope, marked
/// `asserted`.
public struct EligibilityChecked: EventPayload {
    /// `EligibilityChecked`.
    public static let eventType = "EligibilityChecked"
    /// 1.
    public static let schemaVersion = 1

    /// Whether age features apply to the person; absent when the check failed.
    public var isEligibleForAgeFeatures: Bool?
    /// The regulatory features the system requires of the app (a set: no repeats).
    public var requiredRegulatoryFeatures: [RegulatoryFeature]?
    /// Why the check failed; absent when it succeeded.
    public var error: Failure?

    /// A regulatory feature DeclaredAgeRange can require.
    public enum RegulatoryFeature: String, CatalogueValue {
        /// The app must request an age range.
        case declaredAgeRangeRequired
        /// Significant app changes need a parent's consent.
        case significantAppChangeRequiresParentalConsent
        /// Significant app changes must be shown to adults.
        case significantAppChangeRequiresAdultNotification
    }

    /// The error the eligibility check can fail with.
    public enum Failure: String, CatalogueValue {
        /// The system could not answer.
        case notAvailable
    }

    /// A successful check.
    public init(isEligibleForAgeFeatures: Bool, requiredRegulatoryFeatures: [RegulatoryFeature]? = nil) {
        self.isEligibleForAgeFeatures = isEligibleForAgeFeatures
        self.requiredRegulatoryFeatures = requiredRegulatoryFeatures
    }

    /// A failed check.
    public init(error: Failure) {
        self.error = error
    }
}

extension EligibilityChecked {
    /// The schema.
    public static let schema = EventSchema(
        EligibilityChecked.self, group: .ageRange,
        summary: "The app checked whether DeclaredAgeRange's age features apply to the person "
            + "(`isEligibleForAgeFeatures`) and which regulatory features are required, or the check failed with `notAvailable`. "
            + "The API returns no region: the envelope's jurisdiction is what the app asserts.",
        fields: [
            .optional("isEligibleForAgeFeatures", .boolean, "Whether age features apply to the person; absent when the check failed."),
            .optional("requiredRegulatoryFeatures", .array(of: .oneOf(RegulatoryFeature.self), count: 0...3, unique: true),
                      "The regulatory features the system requires of the app (a set)."),
            .optional("error", .oneOf(Failure.self), "The error the check failed with; absent when it succeeded."),
        ],
        rules: [
            .exactlyOne(of: ["isEligibleForAgeFeatures", "error"]),
            .requires("requiredRegulatoryFeatures", other: "isEligibleForAgeFeatures"),
        ],
        examples: [
            ["isEligibleForAgeFeatures": true,
             "requiredRegulatoryFeatures": ["declaredAgeRangeRequired", "significantAppChangeRequiresParentalConsent"]],
            ["error": "notAvailable"],
        ]
    )
}

extension EligibilityChecked {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        if let error = p.string("error") { return "The eligibility check failed: \(error)." }
        let eligible = p.bool("isEligibleForAgeFeatures") == true
        let features = p.strings("requiredRegulatoryFeatures")
        return "The app checked eligibility: age features \(eligible ? "apply" : "do not apply")"
            + (features.isEmpty ? "." : "; required: \(features.joined(separator: ", ")).")
    }
}

extension EligibilityChecked {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .eligibilityChecked(self) }
}
