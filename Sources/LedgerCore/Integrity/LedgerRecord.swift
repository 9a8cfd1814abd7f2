/// The record the ledger hashes for each event: the RFC 8785 canonical JSON object
///
/// ```json
/// {"event":{…the event as submitted…},"log":"acme","position":42,
///  "recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":3}
/// ```
///
/// `ledger.append_events` builds it in PostgreSQL (the keys are already in RFC 8785 order, and the
/// event is canonical), so the position, the ledger's clock and the stream version are sealed by
/// the hash along with the event. This type builds the same bytes in Swift, for tests and
/// verification, and reads a stored record back.
public struct LedgerRecord: Sendable, Equatable {
    /// The event as submitted (without write conditions).
    public var event: JSONValue
    /// The log (tenant) id.
    public var log: String
    /// The position in the log, from 1.
    public var position: Int64
    /// The ledger's clock when appended: UTC, microseconds, `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    public var recordedAt: String
    /// The version of the event's stream after it, from 1.
    public var streamVersion: Int64

    /// Creates a record.
    public init(event: JSONValue, log: String, position: Int64, recordedAt: String, streamVersion: Int64) {
        self.event = event
        self.log = log
        self.position = position
        self.recordedAt = recordedAt
        self.streamVersion = streamVersion
    }

    /// The canonical bytes (what is hashed).
    public var canonicalBytes: [UInt8] {
        CanonicalJSON.encode(.object([
            "event": event,
            "log": .string(log),
            "position": .number(Double(position)),
            "recordedAt": .string(recordedAt),
            "streamVersion": .number(Double(streamVersion)),
        ]))
    }

    /// The same bytes as ``canonicalBytes``, without parsing the event again: `canonicalEvent`
    /// must be an event's RFC 8785 bytes and `log` a valid log id (`[a-z0-9._-]`, nothing to
    /// escape). The members are already in RFC 8785 order. `ledger.append_events` builds its
    /// records the same way, by concatenation; the bulk path (decision 0042) builds them here.
    public static func bytes(canonicalEvent: [UInt8], log: String, position: Int64, recordedAt: String,
                             streamVersion: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(canonicalEvent.count + log.utf8.count + 96)
        bytes += #"{"event":"#.utf8
        bytes += canonicalEvent
        bytes += #","log":""#.utf8
        bytes += log.utf8
        bytes += #"","position":"#.utf8
        bytes += String(position).utf8
        bytes += #","recordedAt":""#.utf8
        bytes += recordedAt.utf8
        bytes += #"","streamVersion":"#.utf8
        bytes += String(streamVersion).utf8
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Reads stored record bytes.
    ///
    /// - Throws: a description of what is wrong with them.
    public init(parsing bytes: [UInt8]) throws(LedgerError) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw LedgerError(.integrityFailure, "the record is not valid JSON: \(error)")
        }
        guard case .object(let members) = json, members.count == 5,
              let event = members["event"], case .object = event,
              case .string(let log)? = members["log"],
              case .number(let position)? = members["position"],
              case .string(let recordedAt)? = members["recordedAt"],
              case .number(let streamVersion)? = members["streamVersion"]
        else {
            throw LedgerError(.integrityFailure,
                              "the record is not {event, log, position, recordedAt, streamVersion}")
        }
        guard let exactPosition = Self.positiveInteger(position),
              let exactVersion = Self.positiveInteger(streamVersion) else {
            throw LedgerError(.integrityFailure, "the record's position and streamVersion must be integers from 1")
        }
        self.init(event: event, log: log, position: exactPosition, recordedAt: recordedAt, streamVersion: exactVersion)
    }

    /// The value as an Int64 when it is a whole number from 1 to 2^53 (the range JSON keeps exact).
    static func positiveInteger(_ value: Double) -> Int64? {
        guard value >= 1, value <= 9_007_199_254_740_992, value == value.rounded(.towardZero) else { return nil }
        return Int64(value)
    }
}
