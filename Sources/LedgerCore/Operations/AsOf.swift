import Foundation

/// The moment a piece of history is looked at: the head, a position, or a time by either clock.
///
/// - `recordedAt`: the events the ledger had recorded by then (its own clock, the one the hash
///   chain seals): what the ledger could have answered at that moment.
/// - `occurredAt`: the events that happened by then by the reporting device's clock, folded in
///   ledger order: what the devices say was true then, including reports that arrived later.
public enum AsOf: Sendable, Equatable, CustomStringConvertible {
    /// Everything up to the log's head.
    case head
    /// Everything up to and including this position.
    case position(Int64)
    /// Everything recorded at or before this instant.
    case recordedAt(Date)
    /// Everything that occurred at or before this instant (device clock).
    case occurredAt(Date)

    /// Which clock a time refers to.
    public enum Clock: String, Sendable, CaseIterable {
        /// The ledger's clock (`recordedAt`).
        case recorded
        /// The device's clock (`occurredAt`).
        case occurred
    }

    /// Parses `--as-of`: a position (digits) or an RFC 3339 time read on `clock`; nil is the head.
    public static func parse(_ text: String?, clock: Clock = .recorded) throws(LedgerError) -> AsOf {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text != "head" else { return .head }
        if text.allSatisfy(\.isNumber) {
            guard let position = Int64(text), position >= 0 else {
                throw LedgerError(.invalidRequest, "the position \(text) is out of range", hint: "Give a position from 0 up.")
            }
            return .position(position)
        }
        guard let date = Self.date(text) else {
            throw LedgerError(.invalidRequest, "\(text) is neither a log position nor an RFC 3339 time",
                              hint: "Give a position such as 1200, or a time such as 2026-09-10T12:00:00Z.")
        }
        return clock == .recorded ? .recordedAt(date) : .occurredAt(date)
    }

    /// A day (`2026-07-01`, midnight UTC) or an RFC 3339 time, as report periods are given.
    public static func dayOrTime(_ text: String) -> Date? {
        if text.count == 10, let day = date(text + "T00:00:00Z") { return day }
        return date(text)
    }

    /// An RFC 3339 date-time (with or without fractional seconds), or nil.
    public static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `head`, `position 1200`, `recorded by 2026-09-10T12:00:00Z`, `occurred by …`.
    public var description: String {
        switch self {
        case .head: return "head"
        case .position(let p): return "position \(p)"
        case .recordedAt(let d): return "recorded by \(ISO8601DateFormatter().string(from: d))"
        case .occurredAt(let d): return "occurred by \(ISO8601DateFormatter().string(from: d))"
        }
    }
}
