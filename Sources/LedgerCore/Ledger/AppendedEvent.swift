/// One event an append stored (or, for a retried batch, had stored): where it went. The same
/// value is what `EventStore` returns and what the HTTP API answers (`AppendResult.events`).
public struct AppendedEvent: Codable, Sendable, Equatable {
    /// Its position in the log.
    public var position: Int64
    /// Its event id (a lowercase UUID).
    public var eventId: String
    /// Its stream.
    public var stream: String
    /// The stream's version after it.
    public var streamVersion: Int64

    /// An appended event from its parts.
    public init(position: Int64, eventId: String, stream: String, streamVersion: Int64) {
        self.position = position
        self.eventId = eventId
        self.stream = stream
        self.streamVersion = streamVersion
    }
}
