/// `AgeVerificationCompleted`: an age check that is neither DeclaredAgeRange nor Play Age
/// Signals finished: the app's own fallback age gate (a self-declaration screen), or a third-party
/// verifier (facial age estimation, an ID document, a payment card).
///
/// Like the platforms' signals it records an age *range*, never a birth date or an exact age.
/// The ledger derives the legal category from the range found and whether the person is a verified
/// adult: a third-party check that passed and found 18 or over counts, the app's own gate never
/// does (the person only said so).
public struct AgeVerificationCompleted: EventPayload {
    /// `AgeVerificationCompleted`.
    public static let eventType = "AgeVerificationCompleted"
    /// 1.
    public static let schemaVersion = 1

    /// How the age was checked.
    public var method: Method
    /// Who checked it: the verifier's name, for a third-party check.
    public var provider: String?
    /// Whether the check found an age range.
    public var outcome: Outcome
    /// The lowest age of the range found, inclusive; `nil`: no lower limit.
    public var lowerBound: Int?
    /// The highest age of the range found, inclusive; `nil`: no upper limit.
    public var upperBound: Int?

    /// How the age was checked.
    public enum Method: String, CatalogueValue {
        /// The app's own age gate: the person declared their age on a screen of the app.
        case appAgeGate
        /// A third party estimated the age (facial age estimation).
        case thirdPartyEstimation
        /// A third party checked an identity document (ID scan).
        case thirdPartyDocument
        /// A third party checked a payment card.
        case thirdPartyPayment

        /// Whether someone other than the person checked the age: every method but ``appAgeGate``.
        public var isThirdParty: Bool { self != .appAgeGate }

        /// The third-party methods' raw values, for the schema's rules.
        static var thirdPartyValues: [String] { allCases.filter(\.isThirdParty).map(\.rawValue) }
    }

    /// Whether the check found an age range.
    public enum Outcome: String, CatalogueValue {
        /// The check found the range in `lowerBound`/`upperBound`.
        case passed
        /// The check was refused: the document or card was rejected, the liveness check failed, or
        /// the person gave up. Nothing is known of the age.
        case failed
        /// The check finished without placing the person in a range with the confidence required.
        case inconclusive
    }

    /// Creates the payload.
    public init(method: Method, provider: String? = nil, outcome: Outcome, lowerBound: Int? = nil, upperBound: Int? = nil) {
        self.method = method
        self.provider = provider
        self.outcome = outcome
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    /// The legal category of the range found (``LegalCategory/of(lowerBound:upperBound:ageOfMajority:)``);
    /// ``LegalCategory/unknown`` when the check did not pass.
    public func legalCategory(ageOfMajority: Int) -> LegalCategory {
        outcome == .passed ? .of(lowerBound: lowerBound, upperBound: upperBound, ageOfMajority: ageOfMajority) : .unknown
    }

    /// A verified adult: the check passed, found 18 or over, and was made by a third party
    /// (``Method/isThirdParty``). The app's own gate is a self-declaration and never verifies.
    public func isVerifiedAdult(ageOfMajority: Int) -> Bool {
        legalCategory(ageOfMajority: ageOfMajority) == .adult && method.isThirdParty
    }

    /// `legalCategory` and `verifiedAdult`, as ``AgeRangeShared`` and ``PlayAgeSignalReceived`` derive them.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        ["legalCategory": .string(legalCategory(ageOfMajority: context.ageOfMajority).rawValue),
         "verifiedAdult": .bool(isVerifiedAdult(ageOfMajority: context.ageOfMajority))]
    }
}

extension AgeVerificationCompleted {
    /// The schema.
    public static let schema = EventSchema(
        AgeVerificationCompleted.self, group: .otherPlatformsAndPeople,
        summary: "An age check that is neither DeclaredAgeRange nor Play Age Signals finished: the app's own age gate "
            + "(a self-declaration screen, where neither platform signal is available) or a third-party verifier "
            + "(facial age estimation, an ID document, a payment card). It records the range found, never a birth date "
            + "or an exact age; a check that passed with neither bound is accepted (category `unknown`).",
        fields: [
            .required("method", .oneOf(Method.self),
                      "How the age was checked: the app's own gate (appAgeGate) or a third party's estimation, document or payment check."),
            .optional("provider", .token(.identifier), "The third-party verifier's name; absent for the app's own gate."),
            .required("outcome", .oneOf(Outcome.self),
                      "passed: the range below was found; failed: the check was refused or abandoned; inconclusive: no range "
                        + "with the confidence required."),
            .optional("lowerBound", .integer(1...99), "The lowest age of the range found, inclusive; absent or null: no lower limit."),
            .optional("upperBound", .integer(1...99), "The highest age of the range found, inclusive; absent or null: no upper limit."),
        ],
        rules: [
            .requiredWhen("provider", other: "method", isOneOf: Method.thirdPartyValues),
            .onlyWhen("lowerBound", other: "outcome", isOneOf: [Outcome.passed.rawValue]),
            .onlyWhen("upperBound", other: "outcome", isOneOf: [Outcome.passed.rawValue]),
            .orderedBounds(lower: "lowerBound", upper: "upperBound"),
            .minimumSpan(lower: "lowerBound", upper: "upperBound", floor: 0, years: 2),
        ],
        derived: [
            DerivedFactSchema("legalCategory", .oneOf(LegalCategory.self),
                              "The band that contains the whole range [lowerBound or 0, upperBound or no limit], as for AgeRangeShared; "
                                + "unknown when the outcome is not passed.",
                              computed: .legalCategory(lower: "lowerBound", upper: "upperBound",
                                                       condition: FieldCondition("outcome", is: Outcome.passed.rawValue))),
            DerivedFactSchema("verifiedAdult", .boolean,
                              "legalCategory is adult and a third party checked the age (thirdPartyEstimation, thirdPartyDocument, "
                                + "thirdPartyPayment). The app's own gate (appAgeGate) is a self-declaration and never counts.",
                              computed: .verifiedAdult(field: "method", isOneOf: Method.thirdPartyValues)),
        ],
        // A failed or inconclusive check tells nothing of the age.
        roles: [EventRole(.ageSignal, when: FieldCondition("outcome", is: Outcome.passed.rawValue))],
        examples: [
            ["method": "thirdPartyDocument", "provider": "example-id-check", "outcome": "passed", "lowerBound": 18],
            ["method": "appAgeGate", "outcome": "passed", "lowerBound": 13, "upperBound": 15],
            ["method": "thirdPartyEstimation", "provider": "example-face-age", "outcome": "inconclusive"],
        ]
    )
}

extension AgeVerificationCompleted {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        let method = p.string("method") ?? "?"
        let by = method == "appAgeGate" ? "the app's own age gate" : "\(p.string("provider") ?? "a third party") (\(method))"
        let outcome = p.string("outcome") ?? "?"
        guard outcome == "passed" else {
            return "An age check by \(by) \(outcome == "failed" ? "failed" : "was \(outcome)"): no range found."
        }
        return "An age check by \(by) passed: \(EventNarrative.range(p.int("lowerBound"), p.int("upperBound"))), "
            + "category \(d.string("legalCategory") ?? "?")" + (d.bool("verifiedAdult") == true ? ", a verified adult" : "") + "."
    }
}

extension AgeVerificationCompleted {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageVerificationCompleted(self) }
}
