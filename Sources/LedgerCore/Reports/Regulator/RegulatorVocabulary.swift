/// The fixed lists the regulator report prints in full (zeros included), in the catalogue's order,
/// so that two reports can be laid side by side row for row. The payload values are the catalogue's
/// own enumerations (a value added to an event type is listed without touching this file).
public enum RegulatorVocabulary {
    /// `AgeRangeRequested.trigger`.
    public static let triggers = AgeRangeRequested.Trigger.allCases.map(\.rawValue)
    /// The derived legal categories.
    public static let categories = LegalCategory.allCases.map(\.rawValue)
    /// The current `ageRangeDeclaration` values; deprecated ones and `none` are listed after them when seen.
    public static let declarations = AgeRangeShared.AgeRangeDeclaration.allCases
        .filter { !AgeRangeShared.AgeRangeDeclaration.deprecatedValues.contains($0) }.map(\.rawValue)
    /// `AgeRangeRequestFailed.error`.
    public static let ageRangeErrors = AgeRangeRequestFailed.Failure.allCases.map(\.rawValue)
    /// Play's `userStatus`.
    public static let playStatuses = PlayAgeSignalReceived.UserStatus.allCases.map(\.rawValue)
    /// `AgeVerificationCompleted.method`: the app's own gate, then the third parties.
    public static let ageCheckMethods = AgeVerificationCompleted.Method.allCases.map(\.rawValue)
    /// `AgeVerificationCompleted.outcome`.
    public static let ageCheckOutcomes = AgeVerificationCompleted.Outcome.allCases.map(\.rawValue)
    /// The envelope's `app.environment`, and `not stated` for an event that does not say.
    public static let environments = ["production", "sandbox", "development", "not stated"]
    /// MarketplaceKit rating labels; exceptions whose request gave no rating are listed as `not stated`.
    public static let ratings = ["4+", "9+", "13+", "16+", "18+", "unrated"]
    /// `EligibilityChecked`: eligible, notEligible, or the check's error.
    public static let eligibilityOutcomes = ["eligible", "notEligible"] + EligibilityChecked.Failure.allCases.map(\.rawValue)
    /// `AgeRangeShared.activeParentalControls`, then `none` for a response with none active.
    public static let parentalControls = AgeRangeShared.ParentalControl.allCases.map(\.rawValue) + ["none"]
    /// `InstallAttempted.outcome`.
    public static let installOutcomes = InstallAttempted.Outcome.allCases.map(\.rawValue)
    /// `DeviceRatingLimitObserved`: the limit's label, `noLimit` for 2000 (all apps allowed).
    public static let ratingLimits = ["4+", "9+", "13+", "16+", "18+", "noLimit"]
    /// `StoreConsentStatusReceived.status`.
    public static let storeConsentStatuses = StoreConsentStatusReceived.Status.allCases.map(\.rawValue)

    /// The buckets of the time-to-answer distribution: [from, to) in seconds, the last open-ended.
    /// An answer received before its question was asked (device clocks) falls in the first.
    public static let timeToAnswerBuckets: [(label: String, from: Int, to: Int?)] = [
        ("under 1 hour", 0, 3_600), ("1 to 6 hours", 3_600, 21_600), ("6 to 24 hours", 21_600, 86_400),
        ("1 to 3 days", 86_400, 259_200), ("3 to 7 days", 259_200, 604_800), ("7 days or more", 604_800, nil),
    ]

    /// The rules whose violations the report lists, with what each means (the rules catalogue's violations).
    public static let rules: [(rule: String, description: String)] = RuleCatalogue.violations.map { ($0.id, $0.statement) }

    /// What a rule means, for the report.
    public static func description(of rule: String) -> String {
        rules.first { $0.rule == rule }?.description ?? rule
    }
}
