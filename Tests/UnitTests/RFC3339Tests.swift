import LedgerCore
import Testing

/// `RFC3339.isValidDateTime`: the `date-time` production of RFC 3339 §5.6, with real calendar
/// dates and a mandatory zone.
@Suite("RFC3339")
struct RFC3339Tests {
    @Test("valid date-times are accepted", arguments: [
        "2026-11-22T10:15:00Z",
        "2026-11-22T10:15:00+01:00",
        "2026-11-22T10:15:00-05:30",
        "2026-11-22T10:15:00+00:00",
        "2026-11-22T10:15:00-00:00",  // RFC 3339 §4.3: unknown local offset
        "2026-11-22T10:15:00+23:59",
        "2026-11-22T10:15:00.1Z",
        "2026-11-22T10:15:00.123Z",
        "2026-11-22T10:15:00.123456Z",
        "2026-11-22T10:15:00.123456789Z",
        "2026-11-22T10:15:00.000000000+14:00",
        "2028-02-29T12:00:00Z",  // leap year
        "2000-02-29T12:00:00Z",  // divisible by 400
        "2026-12-31T23:59:60Z",  // leap second
        "2026-06-30T23:59:60.5+00:00",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2026-01-31T00:00:00Z", "2026-03-31T00:00:00Z", "2026-04-30T00:00:00Z", "2026-12-31T00:00:00Z",
    ])
    func valid(text: String) {
        #expect(RFC3339.isValidDateTime(text))
    }

    @Test("invalid date-times are refused", arguments: [
        "2027-02-29T10:15:00Z",  // not a leap year
        "2100-02-29T10:15:00Z",  // divisible by 100, not by 400
        "2026-04-31T10:15:00Z",
        "2026-02-30T10:15:00Z",
        "2026-13-01T10:15:00Z",
        "2026-00-10T10:15:00Z",
        "2026-11-00T10:15:00Z",
        "2026-11-32T10:15:00Z",
        "2026-11-22T24:00:00Z",
        "2026-11-22T10:60:00Z",
        "2026-11-22T10:15:61Z",
        "2026-11-22 10:15:00Z",  // space instead of T (RFC 3339 §5.6 allows it only as an application choice)
        "2026-11-2210:15:00Z",  // missing T
        "2026-11-22T10:15:00",  // no zone
        "2026-11-22T10:15:00.123",  // no zone
        "2026-11-22T10:15Z",  // no seconds
        "2026-11-22T10:15:00Zjunk",
        "2026-11-22T10:15:00Z ",
        " 2026-11-22T10:15:00Z",
        "2026-11-22T10:15:00+01:00Z",
        "2026-11-22T10:15:00.1234567890Z",  // 10 fraction digits
        "2026-11-22T10:15:00.Z",  // empty fraction
        "2026-11-22T10:15:00,5Z",  // comma decimal (ISO 8601, not RFC 3339)
        "2026-11-22T10:15:00+24:00",
        "2026-11-22T10:15:00+01:60",
        "2026-11-22T10:15:00+0100",
        "2026-11-22T10:15:00+01",
        "2026-11-22T10:15:00+1:00",
        "2026-11-22T10:15:00 +01:00",
        "2026-11-22T10:15:00UTC",
        "0000-01-01T00:00:00Z",  // year 0: the code requires year >= 1 (PostgreSQL refuses it too)
        "26-11-22T10:15:00Z",
        "+2026-11-22T10:15:00Z",
        "20261122T101500Z",  // ISO 8601 basic format
        "2026/11/22T10:15:00Z",
        "2026-1-22T10:15:00Z",
        "２０２６-11-22T10:15:00Z",  // full-width digits
        "",
        "Z",
    ])
    func invalid(text: String) {
        #expect(!RFC3339.isValidDateTime(text))
    }

    /// RFC 3339 §5.6, NOTE: "Per [ABNF] and ISO8601, the "T" and "Z" characters in this syntax
    /// may alternatively be lower case "t" or "z" respectively." The code accepts only upper case,
    /// as does the SQL check in append_events (`T` and `Z` in its regular expression). This test
    /// pins the code's (stricter) behaviour: lower case is refused.
    @Test("lower-case t and z are refused (stricter than RFC 3339 §5.6, same as the SQL check)", arguments: [
        "2026-11-22t10:15:00Z", "2026-11-22T10:15:00z", "2026-11-22t10:15:00z", "2026-11-22t10:15:00.5+01:00",
    ])
    func lowercaseSeparators(text: String) {
        #expect(!RFC3339.isValidDateTime(text))
        // …while the same text in upper case is valid, so only the case decides.
        #expect(RFC3339.isValidDateTime(text.uppercased()))
    }

    @Test("every day of 2028 and 2027 is accepted, the day after each month's end is not")
    func calendar() {
        let lengths2027 = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for (year, lengths) in [(2027, lengths2027), (2028, [31, 29] + lengths2027.dropFirst(2))] {
            for (index, length) in lengths.enumerated() {
                let month = index + 1
                func text(_ day: Int) -> String {
                    "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T00:00:00Z"
                }
                for day in 1...length {
                    #expect(RFC3339.isValidDateTime(text(day)), "\(text(day))")
                }
                #expect(!RFC3339.isValidDateTime(text(length + 1)), "\(text(length + 1))")
            }
        }
    }

    @Test("every hour 00-23, minute 00-59 and offset hour 00-23 is accepted")
    func clockRanges() {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        for hour in 0...23 { #expect(RFC3339.isValidDateTime("2026-11-22T\(two(hour)):00:00Z")) }
        for minute in 0...59 { #expect(RFC3339.isValidDateTime("2026-11-22T00:\(two(minute)):00Z")) }
        for second in 0...60 { #expect(RFC3339.isValidDateTime("2026-11-22T00:00:\(two(second))Z")) }
        for offset in 0...23 {
            #expect(RFC3339.isValidDateTime("2026-11-22T00:00:00+\(two(offset)):00"))
            #expect(RFC3339.isValidDateTime("2026-11-22T00:00:00-\(two(offset)):59"))
        }
    }
}
