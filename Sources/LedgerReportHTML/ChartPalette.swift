import LedgerCore
/// The colours of chart series: the Okabe–Ito palette, which people with the common forms of
/// colour blindness can tell apart, each with the text colour that stays legible on it. Charts never
/// rely on colour alone: every bar carries its count and the legend names every series in order.
public struct ChartColor: Sendable, Equatable {
    /// The fill, `#rrggbb`.
    let fill: String
    /// Text drawn on the fill.
    let ink: String

    /// Okabe–Ito blue.
    public static let blue = ChartColor(fill: "#0072B2", ink: "#ffffff")
    /// Okabe–Ito bluish green.
    static let green = ChartColor(fill: "#009E73", ink: "#000000")
    /// Okabe–Ito vermillion.
    static let vermillion = ChartColor(fill: "#D55E00", ink: "#000000")
    /// Okabe–Ito orange.
    public static let orange = ChartColor(fill: "#E69F00", ink: "#000000")
    /// Okabe–Ito sky blue.
    static let skyBlue = ChartColor(fill: "#56B4E9", ink: "#000000")
    /// Okabe–Ito reddish purple.
    static let purple = ChartColor(fill: "#CC79A7", ink: "#000000")
}

/// The series of consent outcomes, in the order they are stacked (bottom first) and listed in
/// legends, with one colour each wherever they appear.
enum ConsentOutcome: CaseIterable {
    case approved, denied, expired, failed, pending, rescinded

    /// Its name in CSS classes (`o-approved`).
    var cssClass: String {
        switch self {
        case .approved: return "o-approved"
        case .denied: return "o-denied"
        case .expired: return "o-expired"
        case .failed: return "o-failed"
        case .pending: return "o-pending"
        case .rescinded: return "o-rescinded"
        }
    }

    /// The word in legends and tables.
    var label: String {
        switch self {
        case .approved: return "approved"
        case .denied: return "denied"
        case .expired: return "expired"
        case .failed: return "failed"
        case .pending: return "pending"
        case .rescinded: return "approved, later rescinded"
        }
    }

    /// Its colour.
    var color: ChartColor {
        switch self {
        case .approved: return .green
        case .denied: return .vermillion
        case .expired: return .orange
        case .failed: return .purple
        case .pending: return .skyBlue
        case .rescinded: return .blue
        }
    }

    /// The outcome of a consent register row's `answer` (approval, denial, expired, pending,
    /// rescinded, failed); nil for any other value.
    init?(registerAnswer answer: String) {
        switch answer {
        case "approval": self = .approved
        case "denial": self = .denied
        case "expired": self = .expired
        case "pending": self = .pending
        case "rescinded": self = .rescinded
        case "failed": self = .failed
        default: return nil
        }
    }
}
