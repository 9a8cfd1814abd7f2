/// An age rating as MarketplaceKit encodes it (`maximumAllowedAgeRating`, an app's rating):
/// a number, whose label the ledger derives.
public enum AgeRatingCode: Int, CatalogueCode {
    /// 4+.
    case fourPlus = 100
    /// 9+.
    case ninePlus = 200
    /// 13+.
    case thirteenPlus = 313
    /// 16+.
    case sixteenPlus = 416
    /// 18+.
    case eighteenPlus = 618
    /// No limit (all apps allowed), or an unrated app.
    case unrated = 2000

    /// `4+`, `9+`, `13+`, `16+`, `18+` or `unrated`.
    public var label: String {
        switch self {
        case .fourPlus: return "4+"
        case .ninePlus: return "9+"
        case .thirteenPlus: return "13+"
        case .sixteenPlus: return "16+"
        case .eighteenPlus: return "18+"
        case .unrated: return "unrated"
        }
    }

    /// The derived fact `ratingLabel`: its kind and meaning, shared by the types that derive it.
    static func ratingLabelFact(from field: String) -> DerivedFactSchema {
        DerivedFactSchema("ratingLabel", .oneOf(allCases.map(\.label)),
                          "The label of `\(field)`: 100 = 4+, 200 = 9+, 313 = 13+, 416 = 16+, 618 = 18+, 2000 = unrated.",
                          computed: .ratingLabel(of: field))
    }
}

/// An App Store age rating as App Store Connect shows it.
public enum AppStoreAgeRating: String, CatalogueValue {
    /// 4+.
    case fourPlus = "4+"
    /// 9+.
    case ninePlus = "9+"
    /// 13+.
    case thirteenPlus = "13+"
    /// 16+.
    case sixteenPlus = "16+"
    /// 18+.
    case eighteenPlus = "18+"
}
