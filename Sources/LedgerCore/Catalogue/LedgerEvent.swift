/// One stored event as the folds and rules read it: its record parsed **once**, the envelope
/// read, the payload typed (``EventBody``) at its type's current schema version.
///
/// ```swift
/// let event = try LedgerEvent(record: bytes)      // a record of ledger.events
/// switch event.body {
/// case .ageRangeShared(let shared): …              // no default: every type is named
/// …
/// }
/// ```
/// The stored bytes are never changed: an older schema version is upcast here, in memory, and a
/// personal-data field sealed under its subject's key (or destroyed with it by an erasure) reads as
/// ``sealedText`` (an empty list for a sealed list). No fold reads personal data.
public struct LedgerEvent: Sendable, Equatable {
    /// The log (tenant).
    public var log: String
    /// The position in the log, from 1.
    public var position: Int64
    /// The ledger's clock when it appended the event (`YYYY-MM-DDTHH:MM:SS.ffffffZ`).
    public var recordedAt: String
    /// The event's stream version after it.
    public var streamVersion: Int64
    /// The envelope as submitted (identity, stream, type, clocks, actor, app, jurisdiction).
    public var envelope: EventEnvelope
    /// The payload, typed, at the current schema version.
    public var body: EventBody
    /// The facts the ledger derived at append (`legalCategory`, `ratingLabel`, …), by name.
    public var derived: [String: JSONValue]
    /// The roles the event plays (``EventRole``: an age signal, …), decided from its payload as read.
    public var roles: Set<EventRole.Name>

    /// What a sealed personal-data text field reads as.
    public static let sealedText = "(personal data, sealed)"

    /// Parses a stored record (``LedgerRecord``).
    ///
    /// - Throws: `integrity-failure` when the bytes are not a record; the catalogue's error (naming
    ///   the field) when the event does not read as its type. The database's gate lets neither in.
    public init(record bytes: [UInt8]) throws(LedgerError) {
        let record = try LedgerRecord(parsing: bytes)
        guard case .object(var event) = record.event else {
            throw LedgerError(.integrityFailure, "the record's event is not an object")
        }
        var derived: [String: JSONValue] = [:]
        if case .object(let members)? = event.removeValue(forKey: EventCatalogue.derivedMember) { derived = members }
        let envelope = try EventEnvelope(validating: event)
        guard let schema = EventCatalogue.schema(for: envelope.type) else {
            throw LedgerError(.unknownEventType, "the stored event at position \(record.position) has type \(envelope.type), "
                              + "which this build's catalogue does not know", field: "type",
                              hint: "Run a build of the ledger that has the type.")
        }
        guard case .object(var payload)? = event["payload"], let fields = schema.fields(version: envelope.schemaVersion) else {
            throw LedgerError(.unsupportedSchemaVersion, "the stored \(envelope.type) at position \(record.position) has schema "
                              + "version \(envelope.schemaVersion), which this build cannot read", field: "schemaVersion")
        }
        payload = SealedFields.readable(payload, fields: fields)
        if let index = schema.olderVersions.firstIndex(where: { $0.version == envelope.schemaVersion }) {
            for step in schema.olderVersions[index...] { payload = step.upcast(payload) }
        }
        roles = Set(schema.roles.filter { $0.holds(for: .object(payload)) }.map(\.name))
        do {
            body = try schema.decode(.object(payload)).body
        } catch {
            throw LedgerError(.invalidField, "the stored \(envelope.type) at position \(record.position) does not decode: \(error)",
                              field: "payload")
        }
        self.log = record.log
        self.position = record.position
        self.recordedAt = record.recordedAt
        self.streamVersion = record.streamVersion
        self.envelope = envelope
        self.derived = derived
    }

    /// The event type (`AgeRangeShared`).
    public var type: String { envelope.type }

    /// A derived fact as text (`legalCategory` → `13to15`), nil when absent or not text.
    public func derivedText(_ name: String) -> String? {
        if case .string(let text)? = derived[name] { return text }
        return nil
    }
}

/// Personal-data fields of a stored payload made readable as their type without their content.
enum SealedFields {
    /// `payload` with each sealed value (``PersonalDataCipher/isSealed(_:)``) of a personal field of
    /// `fields` replaced: a text by ``LedgerEvent/sealedText``, a list by an empty list.
    static func readable(_ payload: [String: JSONValue], fields: [FieldSchema]) -> [String: JSONValue] {
        var payload = payload
        for field in fields {
            guard let value = payload[field.name] else { continue }
            payload[field.name] = readable(value, kind: field.kind, personal: field.isPersonalData)
        }
        return payload
    }

    private static func readable(_ value: JSONValue, kind: FieldKind, personal: Bool) -> JSONValue {
        if personal, PersonalDataCipher.isSealed(value) {
            if case .array = kind { return .array([]) }
            return .string(LedgerEvent.sealedText)
        }
        switch (kind, value) {
        case (.object(let fields), .object(let members)):
            return .object(readable(members, fields: fields))
        case (.variant(let cases), .object(let members)):
            var out = members
            for variant in cases {
                if case .object(let inner)? = members[variant.name] { out[variant.name] = .object(readable(inner, fields: variant.fields)) }
            }
            return .object(out)
        case (.array(let element, _, _), .array(let items)):
            return .array(items.map { readable($0, kind: element, personal: false) })
        default:
            return value
        }
    }
}
