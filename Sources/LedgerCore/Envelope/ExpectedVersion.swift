/// The condition an event puts on its stream's version before it is appended (optimistic
/// concurrency, as in Message DB's `write_message` and EventStoreDB's expected revision).
///
/// Stream versions start at 1. In NDJSON the condition is the envelope's write-control field
/// `expectedVersion`: `"any"`, `"noStream"`, or a number N ("the stream is at version N").
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// No condition.
    case any
    /// The stream must not exist yet (this event will be version 1).
    case noStream
    /// The stream's newest event must have exactly this version.
    case exact(Int64)

    /// The text the append function takes: `any`, `noStream` or the number.
    public var sqlText: String {
        switch self {
        case .any: return "any"
        case .noStream: return "noStream"
        case .exact(let version): return String(version)
        }
    }

    /// Same as ``sqlText``.
    public var description: String { sqlText }

    /// Reads the JSON form; `nil` when the value is not one of the three forms.
    public init?(json: JSONValue) {
        switch json {
        case .string("any"): self = .any
        case .string("noStream"): self = .noStream
        case .number(let number) where number >= 1 && number == number.rounded() && number < 9e15:
            self = .exact(Int64(number))
        default: return nil
        }
    }
}

extension ExpectedVersion {
    /// Whether an event with this condition may follow a stream now at `current` (0: no stream).
    /// `ledger.append_events` checks the same in SQL; the bulk path (decision 0042) here.
    public func admits(current: Int64) -> Bool {
        switch self {
        case .any: return true
        case .noStream: return current == 0
        case .exact(let version): return current == version
        }
    }
}
