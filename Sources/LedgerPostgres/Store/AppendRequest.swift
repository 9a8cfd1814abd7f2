import LedgerCore

/// One single-event append request as the group commit holds it: the event and the request's
/// `Idempotency-Key`, if it has one.
public struct AppendRequest: Sendable {
    /// The event.
    public var event: EventInput
    /// The request's key: a retry with it returns the original position and writes nothing.
    public var idempotencyKey: String?

    /// A request for `event`, under `idempotencyKey` when given.
    public init(event: EventInput, idempotencyKey: String? = nil) {
        self.event = event
        self.idempotencyKey = idempotencyKey
    }
}
