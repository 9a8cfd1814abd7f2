/// One row of `ledger.events` as read back: the columns `verify` checks and the record bytes.
public struct StoredEvent: Sendable, Equatable {
    /// The log id.
    public var log: String
    /// The position in the log.
    public var position: Int64
    /// The event id (lowercase UUID text).
    public var eventId: String
    /// The stream.
    public var stream: String
    /// The stream version.
    public var streamVersion: Int64
    /// The event type.
    public var type: String
    /// `recorded_at` formatted as the record has it (UTC, microseconds).
    public var recordedAt: String
    /// The exact bytes that were hashed.
    public var record: [UInt8]
    /// The stored leaf hash.
    public var leafHash: [UInt8]
    /// The stored chain hash.
    public var chainHash: [UInt8]

    /// Creates a row.
    public init(log: String, position: Int64, eventId: String, stream: String, streamVersion: Int64,
                type: String, recordedAt: String, record: [UInt8], leafHash: [UInt8], chainHash: [UInt8]) {
        self.log = log
        self.position = position
        self.eventId = eventId
        self.stream = stream
        self.streamVersion = streamVersion
        self.type = type
        self.recordedAt = recordedAt
        self.record = record
        self.leafHash = leafHash
        self.chainHash = chainHash
    }
}
