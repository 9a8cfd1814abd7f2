import LedgerCore
/// One simulated event before it has an id and a time: the envelope's fields and the payload.
/// ``render(eventId:occurredAt:)`` writes it as the NDJSON line a client would send.
struct EventDraft {
    /// The app stamp of an envelope.
    struct AppStamp {
        /// Bundle id or package name.
        var bundleId: String
        /// The app's version.
        var appVersion: String?
        /// `iOS`, `iPadOS`, `android`, `server`, ….
        var platform: String?
        /// The operating system's version.
        var osVersion: String?
        /// `production`, `sandbox` or `development`.
        var environment: String? = "production"
    }

    /// The event type (`AgeRangeShared`).
    var type: String
    /// The stream (`subject-p_…`, `question-<uuid>`, …).
    var stream: String
    /// The subject's pseudonym.
    var subject: String?
    /// The actor's kind (`app`, `guardian`, …).
    var actorKind: String
    /// The actor's pseudonym.
    var actorId: String?
    /// The reporting app.
    var app: AppStamp?
    /// The jurisdiction's code and basis.
    var jurisdiction: (code: String, basis: String)?
    /// The flow the event belongs to.
    var correlationId: String?
    /// The event that caused it.
    var causationId: String?
    /// The payload's members.
    var payload: [String: JSONValue]

    /// The schema version each type is written with: the catalogue's current one.
    static let schemaVersions: [String: Int] = Dictionary(
        uniqueKeysWithValues: EventCatalogue.schemas.map { ($0.type, $0.version) })

    /// The NDJSON line: envelope members in a fixed, readable order (as `consent-ledger demo`
    /// writes them), the payload in RFC 8785 canonical form.
    func render(eventId: String, occurredAt: Int64) -> String {
        var out = "{\"eventId\":\"" + eventId + "\",\"stream\":" + Self.quoted(stream)
        out += ",\"type\":\"" + type + "\",\"schemaVersion\":" + String(Self.schemaVersions[type] ?? 1)
        out += ",\"occurredAt\":\"" + SimulationClock.timestamp(occurredAt) + "\""
        if let subject { out += ",\"subject\":" + Self.quoted(subject) }
        out += ",\"actor\":{\"kind\":\"" + actorKind + "\""
        if let actorId { out += ",\"id\":" + Self.quoted(actorId) }
        out += "}"
        if let app {
            out += ",\"app\":{\"bundleId\":" + Self.quoted(app.bundleId)
            if let version = app.appVersion { out += ",\"appVersion\":" + Self.quoted(version) }
            if let platform = app.platform { out += ",\"platform\":" + Self.quoted(platform) }
            if let os = app.osVersion { out += ",\"osVersion\":" + Self.quoted(os) }
            if let environment = app.environment { out += ",\"environment\":" + Self.quoted(environment) }
            out += "}"
        }
        if let jurisdiction {
            out += ",\"jurisdiction\":{\"code\":" + Self.quoted(jurisdiction.code) + ",\"basis\":" + Self.quoted(jurisdiction.basis) + "}"
        }
        if let correlationId { out += ",\"correlationId\":" + Self.quoted(correlationId) }
        if let causationId { out += ",\"causationId\":" + Self.quoted(causationId) }
        out += ",\"payload\":" + CanonicalJSON.encodeString(.object(payload)) + "}"
        return out
    }

    private static func quoted(_ text: String) -> String { CanonicalJSON.encodeString(.string(text)) }
}

extension JSONValue {
    /// An integer as a JSON number.
    static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    /// Strings as a JSON array.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
