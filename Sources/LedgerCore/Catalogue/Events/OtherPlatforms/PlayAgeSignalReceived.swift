/// `PlayAgeSignalReceived`: the app read Google Play's Age Signals (`AgeSignalsResult`).
///
/// The ledger derives the legal category from `ageLower`/`ageUpper` (both inclusive) and whether
/// the person is a verified adult.
public struct PlayAgeSignalReceived: EventPayload {
    /// `PlayAgeSignalReceived`.
    public static let eventType = "PlayAgeSignalReceived"
    /// 1.
    public static let schemaVersion = 1

    /// `userStatus`.
    public var userStatus: UserStatus
    /// `ageLower`: the lowest age of the range, inclusive.
    public var ageLower: Int?
    /// `ageUpper`: the highest age of the range, inclusive; `nil` for the top band (18+).
    public var ageUpper: Int?
    /// `mostRecentApprovalDate`: the date of the most recent approved significant change.
    public var mostRecentApprovalDate: String?
    /// `installId`: Play's id of this install, for supervised users.
    public var installId: String?
    /// `ageRangeSource`: how the range was established.
    public var ageRangeSource: AgeRangeSource?

    /// `AgeSignalsVerificationStatus`.
    public enum UserStatus: String, CatalogueValue {
        /// The user is verified.
        case VERIFIED
        /// The user is supervised by a parent.
        case SUPERVISED
        /// A significant change awaits the parent's approval.
        case SUPERVISED_APPROVAL_PENDING
        /// The parent denied a significant change.
        case SUPERVISED_APPROVAL_DENIED
        /// Unknown.
        case UNKNOWN
        /// The user declared their age.
        case DECLARED
    }

    /// `ageRangeSource`.
    public enum AgeRangeSource: String, CatalogueValue {
        /// The user gave their age.
        case TIER_A
        /// A parent manages the user's age.
        case TIER_B
        /// Estimated by credit card, e-mail, selfie, government ID or tax id.
        case TIER_C
        /// Checked by government ID with selfie, or a digital ID.
        case TIER_D
    }

    /// Creates the payload.
    public init(userStatus: UserStatus, ageLower: Int? = nil, ageUpper: Int? = nil, mostRecentApprovalDate: String? = nil,
                installId: String? = nil, ageRangeSource: AgeRangeSource? = nil) {
        self.userStatus = userStatus
        self.ageLower = ageLower
        self.ageUpper = ageUpper
        self.mostRecentApprovalDate = mostRecentApprovalDate
        self.installId = installId
        self.ageRangeSource = ageRangeSource
    }

    /// The legal category of `ageLower...ageUpper`; ``LegalCategory/unknown`` when Play sent no range.
    public func legalCategory(ageOfMajority: Int) -> LegalCategory {
        guard ageLower != nil || ageUpper != nil else { return .unknown }
        return .of(lowerBound: ageLower, upperBound: ageUpper, ageOfMajority: ageOfMajority)
    }

    /// A verified adult: the category is adult and `userStatus` is `VERIFIED`.
    public func isVerifiedAdult(ageOfMajority: Int) -> Bool {
        legalCategory(ageOfMajority: ageOfMajority) == .adult && userStatus == .VERIFIED
    }

    /// `legalCategory` and `verifiedAdult`, at the age of majority of the event's jurisdiction.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        ["legalCategory": .string(legalCategory(ageOfMajority: context.ageOfMajority).rawValue),
         "verifiedAdult": .bool(isVerifiedAdult(ageOfMajority: context.ageOfMajority))]
    }
}

extension PlayAgeSignalReceived {
    /// The schema.
    public static let schema = EventSchema(
        PlayAgeSignalReceived.self, group: .otherPlatformsAndPeople,
        summary: "The app read Google Play's Age Signals. Field names and values are Play's (`AgeSignalsResult`).",
        fields: [
            .required("userStatus", .oneOf(UserStatus.self), "`userStatus`."),
            .optional("ageLower", .integer(0...18), "`ageLower`: the lowest age of the range, inclusive."),
            .optional("ageUpper", .integer(2...18), "`ageUpper`: the highest age of the range, inclusive; absent for the top band."),
            .optional("mostRecentApprovalDate", .token(.date), "`mostRecentApprovalDate`: when the latest significant change was approved."),
            .optional("installId", .token(.identifier), "`installId`: Play's id of this install."),
            .optional("ageRangeSource", .oneOf(AgeRangeSource.self), "`ageRangeSource`: how the range was established."),
        ],
        rules: [
            .orderedBounds(lower: "ageLower", upper: "ageUpper"),
            .minimumSpan(lower: "ageLower", upper: "ageUpper", floor: 0, years: 2),
        ],
        derived: [
            DerivedFactSchema("legalCategory", .oneOf(LegalCategory.self),
                              "The band that contains the whole range [ageLower or 0, ageUpper or no limit], as for AgeRangeShared; "
                                + "unknown when Play sent neither bound.",
                              computed: .legalCategory(lower: "ageLower", upper: "ageUpper", condition: nil)),
            DerivedFactSchema("verifiedAdult", .boolean, "legalCategory is adult and userStatus is VERIFIED.",
                              computed: .verifiedAdult(field: "userStatus", isOneOf: [UserStatus.VERIFIED.rawValue])),
        ],
        roles: [.ageSignal],
        examples: [
            ["userStatus": "SUPERVISED_APPROVAL_PENDING", "ageLower": 13, "ageUpper": 15, "mostRecentApprovalDate": "2026-10-01",
             "installId": "a1b2c3d4-play-install", "ageRangeSource": "TIER_B"],
            ["userStatus": "VERIFIED", "ageLower": 18, "ageRangeSource": "TIER_D"],
        ]
    )
}

extension PlayAgeSignalReceived {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        return "Google Play reported \(p.string("userStatus") ?? "?"), \(EventNarrative.range(p.int("ageLower"), p.int("ageUpper"), inclusiveUpper: true)), "
            + "category \(d.string("legalCategory") ?? "?")"
            + (p.string("mostRecentApprovalDate").map { "; latest approval \($0)" } ?? "") + "."
    }
}

extension PlayAgeSignalReceived {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .playAgeSignalReceived(self) }
}
