import Foundation

/// A typed event payload of the catalogue (one per docs/design/events.md type), at its current schema version.
///
/// Property names are the JSON member names, spelled as the platform APIs spell them, so the
/// synthesized `Codable` conformance is the canonical encoding.
/// ```swift
/// let shared = try AgeRangeShared.decode(["lowerBound": 13, "upperBound": 15])
/// shared.derivedFacts(in: .standard)   // ["legalCategory": "13to15", "verifiedAdult": false]
/// shared.jsonValue      // {"lowerBound": 13, "upperBound": 15}
/// ```
public protocol EventPayload: Codable, Sendable, Equatable {
    /// The event type, as docs/design/events.md names it.
    static var eventType: String { get }
    /// The current schema version of the payload.
    static var schemaVersion: Int { get }
    /// The type's declarative description.
    static var schema: EventSchema { get }
    /// The facts the ledger derives from this payload in `context` (stored as the event's
    /// `derived` member), named as ``EventSchema/derived`` lists them. Empty for most types.
    func derivedFacts(in context: DerivationContext) -> [String: JSONValue]
    /// One plain sentence for an event of this type (``EventNarrative``): what it says happened,
    /// from its payload `payload` and derived facts `derived`, never a sealed (personal) field.
    /// Every type gives its own: a new type does not compile without one.
    static func sentence(payload: EventNarrative.Reader, derived: EventNarrative.Reader) -> String
    /// This payload as its case of ``EventBody``, the enum folds and rules switch on. Every type
    /// gives its own (`.ageRangeShared(self)`): a new type does not compile without a case.
    var body: EventBody { get }
}

extension EventPayload {
    /// No derived facts.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] { [:] }

    /// The payload as JSON (the members the Swift value holds; absent optionals are omitted).
    public var jsonValue: JSONValue { PayloadCoding.encode(self) }

    /// Validates `json` as a payload of `schemaVersion` (upcasting an older version) and decodes it.
    ///
    /// - Throws: ``LedgerError`` naming the field, as ``EventCatalogue/validate(type:schemaVersion:payload:context:)``.
    public static func decode(_ json: JSONValue, schemaVersion: Int = Self.schemaVersion) throws(LedgerError) -> Self {
        let checked = try EventCatalogue.validate(type: eventType, schemaVersion: schemaVersion, payload: json, context: .standard)
        guard let payload = checked.payload as? Self else {
            preconditionFailure("\(eventType)'s schema decodes another type")
        }
        return payload
    }
}

/// Bridges `Codable` payloads and ``JSONValue``: decoding straight from the tree (``JSONValueDecoder``),
/// encoding through Foundation's JSON encoder.
enum PayloadCoding {
    static func decode<Payload: Decodable>(_ type: Payload.Type, from json: JSONValue) throws -> Payload {
        try json.decoded(as: Payload.self)
    }

    static func encode<Payload: Encodable>(_ value: Payload) -> JSONValue {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONParser.parse([UInt8](data))
        } catch {
            preconditionFailure("a catalogue payload did not encode: \(error)")
        }
    }
}
