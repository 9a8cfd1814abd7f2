/// The sections of docs/design/events.md, in its order; the catalogue documents each type under its group.
public enum EventGroup: String, Sendable, CaseIterable {
    /// DeclaredAgeRange: eligibility, requests and responses.
    case ageRange
    /// Significant changes, PermissionKit questions and answers, App Store rescissions, access gates.
    case consent
    /// MarketplaceKit age-rating limits and exceptions.
    case ageRatingExceptions
    /// What the state app store acts have the store and the developer exchange: the store's
    /// parental-consent status, the developer's notice of a significant change.
    case appStoreLaws
    /// Google Play Age Signals, an app's own age gate or a third-party verifier, and people working on the ledger.
    case otherPlatformsAndPeople
    /// Retention and erasure carried out by the ledger.
    case ledger

    /// The section title, as docs/design/events.md words it.
    public var title: String {
        switch self {
        case .ageRange: return "Age range (DeclaredAgeRange)"
        case .consent: return "Significant changes and consent (DeclaredAgeRange + PermissionKit)"
        case .ageRatingExceptions: return "Age-rating exceptions (MarketplaceKit)"
        case .appStoreLaws: return "App store acts"
        case .otherPlatformsAndPeople: return "Other platforms and people"
        case .ledger: return "The ledger's own facts"
        }
    }
}
