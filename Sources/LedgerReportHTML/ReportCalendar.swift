import LedgerCore
/// Calendar arithmetic on the UTC dates of RFC 3339 strings, without Foundation's calendars, so
/// that weeks come out the same on every machine: days are counted from 1970-01-01 with the
/// proleptic Gregorian calendar (``CivilDays``).
enum ReportCalendar {
    /// The day number (days since 1970-01-01) of the UTC date of an RFC 3339 date or date-time
    /// (`2026-03-04`, `2026-03-04T10:00:00Z`, `2026-03-04T23:30:00-02:00`), or nil when it is not one.
    static func utcDay(of text: String) -> Int? {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0..<4), bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let month = digits(5..<7), let day = digits(8..<10), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var days = CivilDays.days(year: year, month: month, day: day)
        if bytes.count == 10 { return days }
        guard bytes.count >= 20, bytes[10] | 0x20 == UInt8(ascii: "t"),
              let hour = digits(11..<13), let minute = digits(14..<16) else { return nil }
        // Move the local time to UTC by the offset, which can change the date.
        var minutes = hour * 60 + minute
        var index = 16
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 3 }  // seconds
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let offsetHours = digits(index + 1..<index + 3), let offsetMinutes = digits(index + 4..<index + 6) else { return nil }
            let offset = offsetHours * 60 + offsetMinutes
            minutes += bytes[index] == UInt8(ascii: "+") ? -offset : offset
        default:
            return nil
        }
        if minutes < 0 { days -= 1 }
        if minutes >= 24 * 60 { days += 1 }
        return days
    }

    /// The day number of the Monday of the ISO week holding `day` (weeks start on Monday).
    static func mondayOfWeek(_ day: Int) -> Int {
        // 1970-01-01 was a Thursday, 3 days after a Monday.
        let weekday = ((day + 3) % 7 + 7) % 7
        return day - weekday
    }

    /// `YYYY-MM-DD` of a day number.
    static func dateString(_ day: Int) -> String {
        let (year, month, dayOfMonth) = CivilDays.date(day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-" + two(dayOfMonth)
    }
}
