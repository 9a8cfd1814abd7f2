#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTC timestamps in the two text forms the ledger uses, without Foundation's formatters.
enum UTCTime {
    /// `YYYY-MM-DDTHH:MM:SSZ`: how events give `occurredAt`.
    static func seconds(_ epochSeconds: Int64) -> String {
        stamp(epochSeconds) + "Z"
    }

    /// Now, as ``seconds(_:)``: when a run ended, in the reports.
    static var now: String { seconds(Int64(time(nil))) }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the ledger's `recordedAt` (microseconds, like the
    /// `to_char` in `ledger.append_events`).
    static func microseconds(_ epochMicros: Int64) -> String {
        let fraction = String(epochMicros % 1_000_000)
        return stamp(epochMicros / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction + "Z"
    }

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ` (the simulator's form), or nil for another form.
    static func epochSeconds(_ text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count == 20, u[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? { Int32(String(decoding: u[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int64(timegm(&parts))
    }

    private static func stamp(_ epochSeconds: Int64) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
