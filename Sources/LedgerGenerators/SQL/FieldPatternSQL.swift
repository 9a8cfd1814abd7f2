import LedgerCore

extension FieldReader.Pattern {
    /// `matches(_:)`'s check as a SQL boolean over the text expression `text` (ASCII classes only, so
    /// a character count equals `matches(_:)`'s byte count); the generated SQL catalogue uses
    /// it. Lengths are checked with `length()`, not with a bounded repetition: PostgreSQL's
    /// regular expressions run `[…]{1,128}` about forty times slower than `[…]+` (decision 0040).
    func sql(_ text: String) -> String {
        func bounded(_ lower: Int, _ upper: Int, _ regex: String) -> String {
            "(length(\(text)) BETWEEN \(lower) AND \(upper) AND (\(text)) ~ '\(regex)')"
        }
        switch self {
        case .uuid: return "(\(text)) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'"
        case .stream: return bounded(1, 200, "^[A-Za-z0-9][A-Za-z0-9._:-]*$")
        case .typeName: return bounded(1, 64, "^[A-Z][A-Za-z0-9]*$")
        case .pseudonym, .identifier: return bounded(1, 128, "^[A-Za-z0-9._:-]+$")
        case .bundleId: return bounded(1, 255, "^[A-Za-z0-9._-]+$")
        case .version: return bounded(1, 64, "^[A-Za-z0-9._+() -]+$")
        case .jurisdiction: return "(\(text)) ~ '^(EU|[A-Z]{2}(-[A-Z0-9]{1,3})?)$'"
        }
    }
}
