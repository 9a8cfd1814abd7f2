/// The one declarative description of an event type: its name, versions, fields, rules, derived
/// facts and examples. Validation (``EventCatalogue``) and documentation (`CatalogueMarkdown` (LedgerGenerators))
/// both read it, so they cannot drift apart.
///
/// Each payload type declares its schema next to its Swift fields:
/// ```swift
/// extension QuestionExpired {
///     public static let schema = EventSchema(
///         QuestionExpired.self, group: .consent,
///         summary: "The question passed its expirationDate unanswered.",
///         fields: [.required("questionId", .token(.uuid), "The question."), …],
///         examples: [["questionId": "…", "expirationDate": "…"]])
/// }
/// ```
public struct EventSchema: Sendable {
    /// The event type, as docs/design/events.md names it (`AgeRangeShared`).
    public let type: String
    /// The docs/design/events.md section the type belongs to.
    public let group: EventGroup
    /// What the event records, in a sentence or two.
    public let summary: String
    /// The current schema version: what new events are validated and decoded as.
    public let version: Int
    /// The current version's fields.
    public let fields: [FieldSchema]
    /// The current version's rules about several fields.
    public let rules: [PayloadRule]
    /// The facts the ledger computes and stores under the event's `derived` member.
    public let derived: [DerivedFactSchema]
    /// Older versions the ledger still reads, oldest first; each is upcast to the current shape.
    public let olderVersions: [SchemaVersion]
    /// Who may append it: each route that may, with the actors it may record (decision 0056).
    public let appenders: [EventAppender]
    /// What it is to the projections and the rules (an age signal, …): ``EventRole``.
    public let roles: [EventRole]
    /// Complete, valid payloads of the current version; the first is the documented example.
    /// Together they use every field.
    public let examples: [JSONValue]

    let decode: @Sendable (JSONValue) throws -> any EventPayload
    /// The type's sentence (``EventPayload/sentence(payload:derived:)``).
    let narrate: @Sendable (EventNarrative.Reader, EventNarrative.Reader) -> String

    /// Creates the schema of `payload`, whose ``EventPayload/eventType`` and
    /// ``EventPayload/schemaVersion`` give the type name and current version.
    public init<Payload: EventPayload>(_ payload: Payload.Type, group: EventGroup, summary: String,
                                       fields: [FieldSchema], rules: [PayloadRule] = [],
                                       derived: [DerivedFactSchema] = [], olderVersions: [SchemaVersion] = [],
                                       appenders: [EventAppender] = EventAppender.ordinary, roles: [EventRole] = [],
                                       examples: [JSONValue]) {
        precondition(!examples.isEmpty, "\(Payload.eventType) needs an example")
        precondition(olderVersions.allSatisfy { $0.version < Payload.schemaVersion })
        type = Payload.eventType
        self.group = group
        self.summary = summary
        version = Payload.schemaVersion
        self.fields = fields
        self.rules = rules
        self.derived = derived
        self.olderVersions = olderVersions.sorted { $0.version < $1.version }
        precondition(!appenders.isEmpty && Set(appenders.map(\.route)).count == appenders.count,
                     "\(Payload.eventType) needs its routes, each once")
        self.appenders = appenders
        precondition(Set(roles.map(\.name)).count == roles.count, "\(Payload.eventType) names a role twice")
        self.roles = roles
        self.examples = examples
        decode = { json in try PayloadCoding.decode(Payload.self, from: json) }
        narrate = { payload, derived in Payload.sentence(payload: payload, derived: derived) }
    }

    /// Whether an event of this type with `payload` plays `role`.
    public func plays(_ role: EventRole.Name, payload: JSONValue) -> Bool {
        roles.contains { $0.name == role && $0.holds(for: payload) }
    }

    /// The documented example: a complete payload of the current version.
    public var example: JSONValue { examples[0] }

    /// Every version the ledger reads, ascending (`[1, 2]`).
    public var schemaVersions: [Int] { olderVersions.map(\.version) + [version] }

    /// The fields of `version`, or `nil` when the type has no such version.
    public func fields(version: Int) -> [FieldSchema]? {
        if version == self.version { return fields }
        return olderVersions.first { $0.version == version }?.fields
    }

    /// JSON paths of the current version's personal-data fields (`payload.reason`); see
    /// ``Swift/Array/personalPaths(prefix:)``.
    public var personalFields: [String] { fields.personalPaths(prefix: "payload") }
}
