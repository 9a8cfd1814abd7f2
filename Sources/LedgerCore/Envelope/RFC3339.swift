/// Strict checks of RFC 3339 `date-time` strings (`2026-11-22T10:15:00Z`,
/// `2026-11-22T10:15:00.123+01:00`), without Foundation's lenient parsers.
///
/// Stricter than RFC 3339 §5.6 in two ways, matching the SQL side (ledger.append_events):
/// `T` and `Z` must be uppercase, and fractions have at most 9 digits (nanoseconds).
public enum RFC3339 {
    /// Whether `text` is an RFC 3339 date-time with a real calendar date and a time zone.
    public static func isValidDateTime(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20,
              let year = digits(0..<4), b[4] == UInt8(ascii: "-"),
              let month = digits(5..<7), b[7] == UInt8(ascii: "-"),
              let day = digits(8..<10), b[10] == UInt8(ascii: "T"),
              let hour = digits(11..<13), b[13] == UInt8(ascii: ":"),
              let minute = digits(14..<16), b[16] == UInt8(ascii: ":"),
              let second = digits(17..<19)
        else { return false }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return false }
        var i = 19
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > start, i - start <= 9 else { return false }
        }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "Z") { return i + 1 == b.count }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count == i + 6,
              let offsetHours = digits((i + 1)..<(i + 3)), b[i + 3] == UInt8(ascii: ":"),
              let offsetMinutes = digits((i + 4)..<(i + 6))
        else { return false }
        return offsetHours <= 23 && offsetMinutes <= 59
    }

    /// The whole seconds since 1970-01-01T00:00:00Z of a valid date-time (its fraction dropped, its
    /// offset applied), or nil when `text` is not one (``isValidDateTime(_:)``).
    public static func epochSeconds(_ text: String) -> Int64? {
        guard isValidDateTime(text) else { return nil }
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64 { b[range].reduce(0) { $0 * 10 + Int64($1 - 0x30) } }
        let days = Int64(CivilDays.days(year: Int(number(0..<4)), month: Int(number(5..<7)), day: Int(number(8..<10))))
        var seconds = days * 86_400 + number(11..<13) * 3_600 + number(14..<16) * 60 + number(17..<19)
        if b.last != UInt8(ascii: "Z") {
            let i = b.count - 6
            let offset = number((i + 1)..<(i + 3)) * 3_600 + number((i + 4)..<(i + 6)) * 60
            seconds += b[i] == UInt8(ascii: "+") ? -offset : offset
        }
        return seconds
    }

    /// The days of `month` (1-12) in the proleptic Gregorian `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
