import LedgerCore
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
        Int64(CivilDays.days(year: Int(year), month: Int(month), day: Int(day))) * Self.day
    }

    /// The calendar date of an instant.
    static func civil(_ instant: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let days = (instant >= 0 ? instant : instant - (day - 1)) / day
        let (y, m, d) = CivilDays.date(Int(days))
        return (Int64(y), Int64(m), Int64(d))
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
