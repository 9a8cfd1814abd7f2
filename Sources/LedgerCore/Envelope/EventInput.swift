/// One event as a client submits it, checked and canonicalized, ready for
/// `ledger.append_events`.
///
/// Checks, in order: valid strict JSON; a JSON object; the envelope (``EventEnvelope``); no birth
/// date, birth year or exact age anywhere (``ForbiddenPersonalData``); the canonical size limit.
/// The write condition `expectedVersion` is taken out; what remains is encoded with RFC 8785 and
/// becomes the `event` member of the record the ledger hashes.
public struct EventInput: Sendable {
    /// The envelope, typed.
    public let envelope: EventEnvelope
    /// The write condition on the event's stream.
    public let expectedVersion: ExpectedVersion
    /// The RFC 8785 canonical UTF-8 bytes of the event (without `expectedVersion`).
    public let canonicalBytes: [UInt8]

    /// The largest canonical event accepted, in bytes (64 KiB).
    public static let maxEventBytes = 65_536

    /// Checks an already-parsed event.
    public init(json: JSONValue) throws(LedgerError) {
        guard case .object(var members) = json else {
            throw LedgerError(.invalidJSON, "an event must be a JSON object",
                              hint: "Write one JSON object per line: {\"eventId\": …, \"type\": …, \"payload\": {…}}.")
        }
        let envelope = try EventEnvelope(validating: members)
        let expectedVersion: ExpectedVersion
        if let condition = members.removeValue(forKey: "expectedVersion") {
            guard let parsed = ExpectedVersion(json: condition) else {
                throw LedgerError(.invalidField, "must be \"any\", \"noStream\" or a stream version (an integer from 1)",
                                  field: "expectedVersion",
                                  hint: "Use the version of the stream's newest event that your decision was based on.")
            }
            expectedVersion = parsed
        } else {
            expectedVersion = .any
        }
        let event = JSONValue.object(members)
        try ForbiddenPersonalData.check(event)
        if let (path, _) = event.paths(where: { value in
            if case .object(let m) = value { return m.keys.contains { $0.hasPrefix("$") } }
            return false
        }).first {
            throw LedgerError(.invalidField, "member names starting with $ are reserved for the ledger (sealed personal data)",
                              field: path.isEmpty ? "(top level)" : path, hint: "Send personal data in clear; the ledger encrypts it.")
        }
        try self.init(validated: envelope, expectedVersion: expectedVersion, event: event)
    }

    /// An event already checked: canonicalizes it and applies the size limit.
    init(validated envelope: EventEnvelope, expectedVersion: ExpectedVersion, event: JSONValue) throws(LedgerError) {
        self.envelope = envelope
        self.expectedVersion = expectedVersion
        canonicalBytes = CanonicalJSON.encode(event)
        guard canonicalBytes.count <= Self.maxEventBytes else {
            throw LedgerError(.recordTooLarge,
                              "the event is \(canonicalBytes.count) bytes in canonical form; the limit is \(Self.maxEventBytes)",
                              hint: "Events record facts, not documents: keep large content out of the payload.")
        }
    }

    /// Parses and checks one NDJSON line.
    public init(line: [UInt8]) throws(LedgerError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line)
        } catch {
            throw LedgerError(.invalidJSON, "not valid JSON: \(error)",
                              hint: "Each line must hold exactly one JSON object (NDJSON).")
        }
        try self.init(json: json)
    }

    /// The canonical event as a Swift string (what `append_events` receives).
    public var canonicalText: String { String(decoding: canonicalBytes, as: UTF8.self) }
}
