
/// What `append` stored (or, for a retried batch, had already stored).
public struct AppendResult: Sendable, Equatable {
    /// One appended event (the same type the HTTP API answers with).
    public typealias Appended = AppendedEvent

    /// The events, in position order.
    public var events: [Appended]
    /// True when the idempotency key had been seen: nothing was written, and `events` are the
    /// positions the original append gave.
    public var idempotentReplay: Bool

    /// The first position, if any.
    public var firstPosition: Int64? { events.first?.position }
    /// The last position, if any.
    public var lastPosition: Int64? { events.last?.position }

    /// A result from its parts (the HTTP API's group commit answers each request with its share).
    public init(events: [Appended], idempotentReplay: Bool) {
        self.events = events
        self.idempotentReplay = idempotentReplay
    }
}
