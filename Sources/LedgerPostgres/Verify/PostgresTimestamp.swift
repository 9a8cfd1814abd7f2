import LedgerCore

/// Reads RFC 3339 times as PostgreSQL's binary `timestamptz` counts them (microseconds since
/// 2000-01-01 00:00:00 UTC), for ``ColumnAgreement``: strictly, so that a text it accepts has
/// exactly one reading, the one PostgreSQL gives it.
enum PostgresTimestamp {
    /// Days from 1970-01-01 to 2000-01-01.
    private static let epochDays = 10_957

    /// The instant of `text`, or nil when it is not a strict RFC 3339 time this reader is sure of:
    /// `YYYY-MM-DDTHH:MM:SS`, a fraction of one to six digits, then `Z` or an offset `±HH:MM` of
    /// at most 14 hours (no leap second). With `fixedFormat`, only the form `recorded_at` is
    /// written in (`to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: six digits and `Z`), so that
    /// equal instants are equal texts.
    static func microseconds(rfc3339 text: UnsafeRawBufferPointer, fixedFormat: Bool) -> Int64? {
        let count = text.count
        guard count >= 20, !fixedFormat || count == 27 else { return nil }
        func digits(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for index in start..<(start + length) {
                let byte = text[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0, 4), text[4] == UInt8(ascii: "-"), let month = digits(5, 2), text[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), text[10] == UInt8(ascii: "T"), let hour = digits(11, 2), text[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2), text[16] == UInt8(ascii: ":"), let second = digits(17, 2),
              year >= 1, month >= 1, month <= 12, day >= 1, day <= RFC3339.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            var length = 0
            while index < count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                fraction = fraction * 10 + Int(text[index] - UInt8(ascii: "0"))
                length += 1
                index += 1
            }
            guard length >= 1, length <= 6, !fixedFormat || length == 6 else { return nil }
            for _ in length..<6 { fraction *= 10 }
        } else if fixedFormat {
            return nil
        }
        guard index < count else { return nil }
        var offsetSeconds = 0
        if text[index] == UInt8(ascii: "Z") {
            guard index + 1 == count else { return nil }
        } else {
            guard !fixedFormat, index + 6 == count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-"),
                  let offsetHours = digits(index + 1, 2), text[index + 3] == UInt8(ascii: ":"),
                  let offsetMinutes = digits(index + 4, 2), offsetHours <= 14, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60 * (text[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        let days = CivilDays.days(year: year, month: month, day: day) - epochDays
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offsetSeconds
        return Int64(seconds) * 1_000_000 + Int64(fraction)
    }
}
