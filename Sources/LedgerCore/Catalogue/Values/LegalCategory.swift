/// The legal age category of a person, derived by the ledger from an age range and the age of
/// majority of the event's jurisdiction (``AgeOfMajority``): the bands US state laws (Texas SB 2420,
/// Utah SB 142, California AB 1043) and COPPA distinguish, and where the age of majority is above 18
/// (Alabama and Nebraska 19, Mississippi and Puerto Rico 21) the years between.
///
/// A range is `[lower, upper]`, both inclusive; a missing lower bound means 0 (below the lowest
/// gate), a missing upper bound means no limit (at or above the highest gate). The category is
/// the band that contains the whole range; a range that reaches into two bands is ``unknown``.
/// With the age of majority M:
///
/// | lower | upper | category |
/// | --- | --- | --- |
/// | nil | 12 | `under13` |
/// | 13 | 15 | `13to15` |
/// | 16 | 17 | `16to17` |
/// | 18 | M - 1 | `18toMajority` (only where M > 18) |
/// | M | nil | `adult` |
/// | 13 | 17 | `unknown` (13 to 15 or 16 to 17) |
/// | nil | 15 | `unknown` |
/// | 16 | nil | `unknown` |
/// | 18 | nil | `adult` where M = 18; `unknown` where M > 18 (a minor or an adult) |
public enum LegalCategory: String, CatalogueValue {
    /// Ages 0 to 12: a child under COPPA.
    case under13
    /// Ages 13 to 15.
    case from13to15 = "13to15"
    /// Ages 16 and 17.
    case from16to17 = "16to17"
    /// 18 or older but under the age of majority of the event's jurisdiction, where that is above
    /// 18: a minor under that jurisdiction's law (18 in Alabama, 18 to 20 in Mississippi).
    case from18toMajority = "18toMajority"
    /// The age of majority or older (18 or older almost everywhere).
    case adult
    /// The range straddles a band boundary, or no range was given.
    case unknown

    /// Whether the category is a minor's: every band below the age of majority. ``unknown`` is not
    /// (the ledger cannot tell); the rules that protect minors say how they treat it.
    public var isMinor: Bool {
        switch self {
        case .under13, .from13to15, .from16to17, .from18toMajority: return true
        case .adult, .unknown: return false
        }
    }

    /// The ages of the band where the age of majority is `ageOfMajority`, both inclusive (`nil`
    /// upper: no limit); `nil` for ``unknown``, and for ``from18toMajority`` where the age of
    /// majority is 18 (the band is empty).
    public func ages(ageOfMajority: Int) -> (lower: Int, upper: Int?)? {
        switch self {
        case .under13: return (0, 12)
        case .from13to15: return (13, 15)
        case .from16to17: return (16, 17)
        case .from18toMajority: return ageOfMajority > 18 ? (18, ageOfMajority - 1) : nil
        case .adult: return (max(ageOfMajority, 18), nil)
        case .unknown: return nil
        }
    }

    /// The category of the range `lowerBound...upperBound` where the age of majority is
    /// `ageOfMajority` (see the type's table).
    public static func of(lowerBound: Int?, upperBound: Int?, ageOfMajority: Int) -> LegalCategory {
        let low = lowerBound ?? 0
        for category in [LegalCategory.under13, .from13to15, .from16to17, .from18toMajority, .adult] {
            guard let band = category.ages(ageOfMajority: ageOfMajority), low >= band.lower else { continue }
            switch (upperBound, band.upper) {
            case (_, nil):
                return category
            case (let high?, let bandUpper?) where high <= bandUpper:
                return category
            default:
                continue
            }
        }
        return .unknown
    }
}
