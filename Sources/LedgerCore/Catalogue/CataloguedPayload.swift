/// A payload the catalogue accepted: typed at the current schema version, with the facts the
/// ledger derives from it.
///
/// The stored event keeps the payload exactly as sent (an older version stays an older version);
/// ``payload`` is what a reader works with.
public struct CataloguedPayload: Sendable {
    /// The event type.
    public let type: String
    /// The schema version the payload was sent (and is stored) with.
    public let schemaVersion: Int
    /// The payload decoded as the type's current version (upcast when it was older).
    public let payload: any EventPayload
    /// The derived facts, to be stored as the event's top-level `derived` member. Empty for types
    /// that derive nothing.
    public let derived: [String: JSONValue]
    /// JSON paths of the fields that are personal data in the stored version's schema
    /// (`payload.reason`); encrypt these before canonical encoding.
    public let personalFields: [String]

    /// Whether the payload was upcast from an older schema version.
    public var wasUpcast: Bool { schemaVersion != Swift.type(of: payload).schemaVersion }

    /// The payload as `Payload`, or `nil` when it is of another type.
    public func payload<Payload: EventPayload>(as type: Payload.Type) -> Payload? {
        payload as? Payload
    }
}
