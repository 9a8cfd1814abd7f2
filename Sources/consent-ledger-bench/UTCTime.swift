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

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the ledger's `recordedAt` (microseconds, like the
    /// `to_char` in `ledger.append_events`).
    static func microseconds(_ epochMicros: Int64) -> String {
        let fraction = String(epochMicros % 1_000_000)
        return stamp(epochMicros / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction + "Z"
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
