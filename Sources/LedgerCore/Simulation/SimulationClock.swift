/// The simulator's calendar: instants are whole seconds since 1970-01-01T00:00:00Z, written as
/// RFC 3339 UTC text. Pure arithmetic (Howard Hinnant's civil-date algorithms), no Foundation and
/// no reading of the system clock.
enum SimulationClock {
    /// Seconds in a day.
    static let day: Int64 = 86_400
    /// Seconds in an hour.
    static let hour: Int64 = 3_600
    /// Seconds in a minute.
    static let minute: Int64 = 60

    /// The instant `text` names, when it has the exact form `YYYY-MM-DDTHH:MM:SSZ` and is a real
    /// date and time; otherwise nil.
    static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 20, RFC3339.isValidDateTime(text), b[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64 { range.reduce(0) { $0 * 10 + Int64(b[$1] - 0x30) } }
        let second = number(17..<19)
        guard second <= 59 else { return nil }
        return seconds(year: number(0..<4), month: number(5..<7), day: number(8..<10))
            + number(11..<13) * hour + number(14..<16) * minute + second
    }

    /// Midnight UTC of a calendar date.
    static func seconds(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * Self.day
    }

    /// The calendar date of an instant.
    static func civil(_ instant: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let days = (instant >= 0 ? instant : instant - (day - 1)) / day
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `YYYY-MM-DD` of an instant (an RFC 3339 full-date, as Play's `mostRecentApprovalDate`).
    static func date(_ instant: Int64) -> String {
        let (y, m, d) = civil(instant)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of an instant.
    static func timestamp(_ instant: Int64) -> String {
        var secondOfDay = instant % day
        if secondOfDay < 0 { secondOfDay += day }
        return date(instant) + "T" + pad(secondOfDay / hour, 2) + ":" + pad(secondOfDay % hour / minute, 2)
            + ":" + pad(secondOfDay % minute, 2) + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
