/// Fixed string formats a payload field can require.
public enum TokenFormat: String, Sendable, Equatable, CaseIterable {
    /// A lowercase UUID (`6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318`).
    case uuid
    /// An id of 1 to 128 characters of A-Z, a-z, 0-9, `.`, `_`, `:` and `-`.
    case identifier
    /// A pseudonym: same characters as an id, never a name, e-mail address or phone number.
    case pseudonym
    /// A bundle id or package name (`com.example.kids`).
    case bundleId
    /// A version string (`3.0.0`).
    case version
    /// An RFC 3339 date-time with a time zone (`2026-11-20T16:02:25Z`).
    case timestamp
    /// An RFC 3339 full date (`2026-11-20`).
    case date

    /// What the string must be, as a phrase.
    public var explanation: String {
        switch self {
        case .uuid: return FieldReader.Pattern.uuid.explanation
        case .identifier: return FieldReader.Pattern.identifier.explanation
        case .pseudonym: return FieldReader.Pattern.pseudonym.explanation
        case .bundleId: return FieldReader.Pattern.bundleId.explanation
        case .version: return FieldReader.Pattern.version.explanation
        case .timestamp: return "an RFC 3339 timestamp with a time zone, such as 2026-11-22T10:15:00Z"
        case .date: return "an RFC 3339 date, such as 2026-11-22"
        }
    }

    /// A short name for tables (`UUID`, `timestamp`).
    public var shortName: String {
        switch self {
        case .uuid: return "UUID"
        case .identifier: return "id"
        case .pseudonym: return "pseudonym"
        case .bundleId: return "bundle id"
        case .version: return "version"
        case .timestamp: return "RFC 3339 timestamp"
        case .date: return "RFC 3339 date"
        }
    }

    /// Whether `text` has this format.
    public func matches(_ text: String) -> Bool {
        switch self {
        case .uuid: return FieldReader.Pattern.uuid.matches(text)
        case .identifier: return FieldReader.Pattern.identifier.matches(text)
        case .pseudonym: return FieldReader.Pattern.pseudonym.matches(text)
        case .bundleId: return FieldReader.Pattern.bundleId.matches(text)
        case .version: return FieldReader.Pattern.version.matches(text)
        case .timestamp: return RFC3339.isValidDateTime(text)
        case .date: return Self.isValidDate(text)
        }
    }

    /// `YYYY-MM-DD` with a real calendar day.
    static func isValidDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              year >= 1, (1...12).contains(month)
        else { return false }
        return day >= 1 && day <= RFC3339.daysIn(month: month, year: year)
    }
}
