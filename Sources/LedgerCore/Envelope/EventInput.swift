/// One event as a client submits it, checked and canonicalized, ready for
/// `ledger.append_events`.
///
/// Checks, in order: valid strict JSON; a JSON object; the envelope (``EventEnvelope``); no birth
/// date, birth year or exact age anywhere (``ForbiddenPersonalData``); the 64 KiB canonical size
/// limit (before any further work on a giant payload); no `$` members (reserved for sealed personal
/// data); the payload against the catalogue (``EventCatalogue``) and the stream conventions
/// (``StreamConvention``). The write condition `expectedVersion` is taken out, the ledger's derived
/// facts are added as `derived`, the size limit is applied again, and the result is encoded with
/// RFC 8785: it becomes the `event` member of the record the ledger hashes.
public struct EventInput: Sendable {
    /// The envelope, typed.
    public let envelope: EventEnvelope
    /// The write condition on the event's stream.
    public let expectedVersion: ExpectedVersion
    /// The RFC 8785 canonical UTF-8 bytes of the event (without `expectedVersion`).
    public let canonicalBytes: [UInt8]

    /// The catalogue's verdict on the payload: the typed payload, derived facts, personal fields.
    public let catalogued: CataloguedPayload

    /// The largest canonical event accepted, in bytes (64 KiB).
    public static let maxEventBytes = 65_536

    /// Checks an already-parsed event.
    public init(json: JSONValue) throws(LedgerError) {
        try self.init(json: json, sourceBytes: nil)
    }

    /// Checks an already-parsed event, read from `sourceBytes` bytes of JSON when known.
    ///
    /// RFC 8785 form is at most about 5.25 times as long as any JSON text of the same value (the
    /// worst is a number such as `1e20`, written out in 21 digits; whitespace is dropped and
    /// escapes only shrink), so a source under a sixth of the limit cannot be over it, and the
    /// early size check is skipped for it. The size is always checked again at the end.
    init(json: JSONValue, sourceBytes: Int?) throws(LedgerError) {
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
        // The size first: a giant payload is refused before any time is spent checking it.
        if (sourceBytes ?? .max) > Self.maxEventBytes / 6 { try Self.checkSize(CanonicalJSON.encode(event).count) }
        let hasReservedMember = { (value: JSONValue) -> Bool in
            if case .object(let m) = value { return m.keys.contains { $0.utf8.first == UInt8(ascii: "$") } }
            return false
        }
        if event.contains(where: hasReservedMember), let (path, _) = event.paths(where: hasReservedMember).first {
            throw LedgerError(.invalidField, "member names starting with $ are reserved for the ledger (sealed personal data)",
                              field: path.isEmpty ? "(top level)" : path, hint: "Send personal data in clear; the ledger encrypts it.")
        }
        let catalogued = try EventCatalogue.validate(type: envelope.type, schemaVersion: envelope.schemaVersion,
                                                     payload: members["payload"] ?? .null,
                                                     context: DerivationContext(jurisdiction: envelope.jurisdiction?.code))
        try StreamConvention.check(envelope, payload: members["payload"] ?? .null)
        if !catalogued.derived.isEmpty { members[EventCatalogue.derivedMember] = .object(catalogued.derived) }
        try self.init(validated: envelope, expectedVersion: expectedVersion, catalogued: catalogued, event: .object(members))
    }

    /// An event already checked: canonicalizes it and applies the size limit.
    init(validated envelope: EventEnvelope, expectedVersion: ExpectedVersion, catalogued: CataloguedPayload,
         event: JSONValue) throws(LedgerError) {
        self.envelope = envelope
        self.expectedVersion = expectedVersion
        self.catalogued = catalogued
        canonicalBytes = CanonicalJSON.encode(event)
        try Self.checkSize(canonicalBytes.count)
    }

    /// Refuses an event over ``maxEventBytes`` in canonical form.
    static func checkSize(_ count: Int) throws(LedgerError) {
        guard count <= maxEventBytes else {
            throw LedgerError(.recordTooLarge, "the event is \(count) bytes in canonical form; the limit is \(maxEventBytes)",
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
        try self.init(json: json, sourceBytes: line.count)
    }

    /// The canonical event as a Swift string (what `append_events` receives).
    public var canonicalText: String { String(decoding: canonicalBytes, as: UTF8.self) }
}
