import Foundation

/// One event as a replay or an explanation shows it.
public struct ReplayedEvent: Sendable, Equatable {
    /// Its position in the log.
    public var position: Int64
    /// Its event id.
    public var eventId: String
    /// Its type.
    public var type: String
    /// Its stream.
    public var stream: String
    /// When it occurred (device clock), RFC 3339.
    public var occurredAt: String
    /// When the ledger recorded it, RFC 3339 with microseconds.
    public var recordedAt: String
    /// Who caused it (`guardian`, `app`, …) and their pseudonym, if given.
    public var actor: String
    /// The app that reported it.
    public var app: String?
    /// The app's environment (`production`, `sandbox`, `development`), when the envelope says.
    public var environment: String?
    /// Its payload, upcast to the current schema version (personal fields stay sealed).
    public var payload: JSONValue
    /// The ledger's derived facts.
    public var derived: JSONValue?

    /// The plain sentence for it (``EventNarrative``), saying when it came from an environment other
    /// than production.
    public var sentence: String {
        let said = EventNarrative.sentence(type: type, payload: payload, derived: derived)
        guard let environment, environment != "production" else { return said }
        return said + " (Reported from the \(environment) environment.)"
    }

    /// A value from its parts (the storage module reads it from rows).
    package init(
        position: Int64,
        eventId: String,
        type: String,
        stream: String,
        occurredAt: String,
        recordedAt: String,
        actor: String,
        app: String? = nil,
        environment: String? = nil,
        payload: JSONValue,
        derived: JSONValue? = nil
    ) {
        self.position = position
        self.eventId = eventId
        self.type = type
        self.stream = stream
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.actor = actor
        self.app = app
        self.environment = environment
        self.payload = payload
        self.derived = derived
    }
}
