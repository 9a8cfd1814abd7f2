/// The legal age category of a person, derived by the ledger from an age range: the bands US
/// state laws (Texas SB 2420, Utah SB 142, California AB 1043) and COPPA distinguish.
///
/// A range is `[lower, upper]`, both inclusive; a missing lower bound means 0 (below the lowest
/// gate), a missing upper bound means no limit (at or above the highest gate). The category is
/// the band that contains the whole range; a range that reaches into two bands is ``unknown``:
///
/// | lower | upper | category |
/// | --- | --- | --- |
/// | nil | 12 | `under13` |
/// | 13 | 15 | `13to15` |
/// | 16 | 17 | `16to17` |
/// | 18 | nil | `adult` |
/// | 13 | 17 | `unknown` (13 to 15 or 16 to 17) |
/// | nil | 15 | `unknown` |
/// | 16 | nil | `unknown` |
public enum LegalCategory: String, CatalogueValue {
    /// Ages 0 to 12: a child under COPPA.
    case under13
    /// Ages 13 to 15.
    case from13to15 = "13to15"
    /// Ages 16 and 17.
    case from16to17 = "16to17"
    /// 18 or older.
    case adult
    /// The range straddles a band boundary, or no range was given.
    case unknown

    /// The ages of the band, both inclusive (`nil` upper: no limit); `nil` for ``unknown``.
    public var ages: (lower: Int, upper: Int?)? {
        switch self {
        case .under13: return (0, 12)
        case .from13to15: return (13, 15)
        case .from16to17: return (16, 17)
        case .adult: return (18, nil)
        case .unknown: return nil
        }
    }

    /// The category of the range `lowerBound...upperBound` (see the type's table).
    public static func of(lowerBound: Int?, upperBound: Int?) -> LegalCategory {
        let low = lowerBound ?? 0
        for category in [LegalCategory.under13, .from13to15, .from16to17, .adult] {
            guard let band = category.ages, low >= band.lower else { continue }
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
