/// `AgeRangeShared`: the age range request was answered with `.sharing(range:)`.
///
/// The ledger derives the legal category from the bounds (``LegalCategory``) and whether the
/// person is a verified adult (``isVerifiedAdult``), and stores both with the event.
public struct AgeRangeShared: EventPayload {
    /// `AgeRangeShared`.
    public static let eventType = "AgeRangeShared"
    /// 2 (version 1 is upcast: ``version1``).
    public static let schemaVersion = 2

    /// The lowest age of the range; `nil`: below the lowest gate.
    public var lowerBound: Int?
    /// The highest age of the range, inclusive; `nil`: at or above the highest gate.
    public var upperBound: Int?
    /// How the range was set.
    public var ageRangeDeclaration: AgeRangeDeclaration?
    /// The parental controls in force (`AgeRange.activeParentalControls`, an option set).
    public var activeParentalControls: [ParentalControl]?

    /// `AgeRangeService.AgeRangeDeclaration`.
    public enum AgeRangeDeclaration: String, CatalogueValue {
        /// The person set their own range.
        case selfDeclared
        /// A parent, guardian or Family Organizer set the range.
        case guardianDeclared
        /// The range was set with a scrutinized method, like a credit card or government ID (iOS 26.5).
        case confirmed
        /// Deprecated: the person's range was checked by an unspecified method.
        case checkedByOtherMethod
        /// Deprecated: the guardian set the range, checked by an unspecified method.
        case guardianCheckedByOtherMethod
        /// Deprecated: the person set their range with a government ID.
        case governmentIDChecked
        /// Deprecated: the guardian set the range with a government ID.
        case guardianGovernmentIDChecked
        /// Deprecated: the person set their range with a payment method.
        case paymentChecked
        /// Deprecated: the guardian set the range with a payment method.
        case guardianPaymentChecked

        /// The six values Apple deprecated when it introduced ``confirmed``; still accepted.
        public static let deprecatedValues: Set<AgeRangeDeclaration> = [
            .checkedByOtherMethod, .guardianCheckedByOtherMethod, .governmentIDChecked,
            .guardianGovernmentIDChecked, .paymentChecked, .guardianPaymentChecked,
        ]

        /// Whether the declaration means the person's own age was checked by a scrutinized method:
        /// ``confirmed`` and the deprecated values it replaced for the person themself
        /// (``governmentIDChecked``, ``paymentChecked``, ``checkedByOtherMethod``). Not
        /// ``selfDeclared`` or ``guardianDeclared`` (nothing checked), and not the `guardian…Checked`
        /// values: there the guardian's ID or payment was checked, not the age of the person whose
        /// range it is.
        public var isVerification: Bool {
            switch self {
            case .confirmed, .governmentIDChecked, .paymentChecked, .checkedByOtherMethod: return true
            default: return false
            }
        }
    }

    /// `AgeRangeService.ParentalControls`.
    public enum ParentalControl: String, CatalogueValue {
        /// Communication Limits are on.
        case communicationLimits
        /// Significant app changes need a parent's approval.
        case significantAppChangeApprovalRequired
    }

    /// Creates the payload.
    public init(lowerBound: Int?, upperBound: Int?, ageRangeDeclaration: AgeRangeDeclaration? = nil,
                activeParentalControls: [ParentalControl]? = nil) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
        self.ageRangeDeclaration = ageRangeDeclaration
        self.activeParentalControls = activeParentalControls
    }

    /// The legal category of the bounds where the age of majority is `ageOfMajority`
    /// (``LegalCategory/of(lowerBound:upperBound:ageOfMajority:)``).
    public func legalCategory(ageOfMajority: Int) -> LegalCategory {
        .of(lowerBound: lowerBound, upperBound: upperBound, ageOfMajority: ageOfMajority)
    }

    /// A verified adult: the category is ``LegalCategory/adult`` and the declaration is a
    /// verification (``AgeRangeDeclaration/isVerification``). No declaration: not verified.
    public func isVerifiedAdult(ageOfMajority: Int) -> Bool {
        legalCategory(ageOfMajority: ageOfMajority) == .adult && (ageRangeDeclaration?.isVerification ?? false)
    }

    /// `legalCategory` and `verifiedAdult`, at the age of majority of the event's jurisdiction.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        ["legalCategory": .string(legalCategory(ageOfMajority: context.ageOfMajority).rawValue),
         "verifiedAdult": .bool(isVerifiedAdult(ageOfMajority: context.ageOfMajority))]
    }
}

extension AgeRangeShared {
    static let boundRules: [PayloadRule] = [
        .orderedBounds(lower: "lowerBound", upper: "upperBound"),
        .minimumSpan(lower: "lowerBound", upper: "upperBound", floor: 0, years: 2),
    ]

    static let lowerBoundField = FieldSchema.optional(
        "lowerBound", .integer(1...21), "The lowest age of the range (a gate); absent or null: below the lowest gate.")
    static let upperBoundField = FieldSchema.optional(
        "upperBound", .integer(1...20), "The highest age of the range, inclusive (the next gate minus 1); absent or null: at or above the highest gate.")

    /// The schema.
    public static let schema = EventSchema(
        AgeRangeShared.self, group: .ageRange,
        summary: "The person (or their guardian) shared an age range: the response was `.sharing(range:)`. "
            + "Both bounds missing is accepted (category `unknown`); an exact age never is.",
        fields: [
            lowerBoundField,
            upperBoundField,
            .optional("ageRangeDeclaration", .oneOf(AgeRangeDeclaration.self), "How the range was set."),
            .optional("activeParentalControls", .array(of: .oneOf(ParentalControl.self), count: 0...2, unique: true),
                      "The parental controls in force (a set; empty: none)."),
        ],
        rules: boundRules,
        derived: [
            DerivedFactSchema("legalCategory", .oneOf(LegalCategory.self),
                              "The band that contains the whole range [lowerBound or 0, upperBound or no limit]: "
                                + "under13 (0-12), 13to15, 16to17, 18toMajority (18 to the age of majority of the envelope's "
                                + "jurisdiction minus 1, where that age is above 18: 19 in US-AL and US-NE, 21 in US-MS and US-PR), "
                                + "adult (the age of majority or over: 18+ elsewhere); unknown when the range reaches into two bands "
                                + "(18+ where the age of majority is above 18).",
                              computed: .legalCategory(lower: "lowerBound", upper: "upperBound", condition: nil)),
            DerivedFactSchema("verifiedAdult", .boolean,
                              "legalCategory is adult and ageRangeDeclaration is confirmed, governmentIDChecked, paymentChecked "
                                + "or checkedByOtherMethod (the person's own age was checked). selfDeclared, guardianDeclared, "
                                + "the guardian…Checked values and a missing declaration do not count.",
                              computed: .verifiedAdult(field: "ageRangeDeclaration",
                                                       isOneOf: AgeRangeDeclaration.allCases.filter(\.isVerification).map(\.rawValue))),
        ],
        olderVersions: [version1],
        roles: [.ageSignal],
        examples: [
            ["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared",
             "activeParentalControls": ["communicationLimits", "significantAppChangeApprovalRequired"]],
            ["lowerBound": 18, "ageRangeDeclaration": "confirmed", "activeParentalControls": []],
            ["upperBound": 12, "ageRangeDeclaration": "guardianGovernmentIDChecked"],
        ]
    )
}

extension AgeRangeShared {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        let controls = p.strings("activeParentalControls")
        return "An age range was shared: \(EventNarrative.range(p.int("lowerBound"), p.int("upperBound"))), "
            + "category \(d.string("legalCategory") ?? "?"), declared \(p.string("ageRangeDeclaration") ?? "(not said)")"
            + (d.bool("verifiedAdult") == true ? ", a verified adult" : "")
            + "; parental controls: \(controls.isEmpty ? "none" : controls.joined(separator: ", "))."
    }
}

extension AgeRangeShared {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageRangeShared(self) }
}
