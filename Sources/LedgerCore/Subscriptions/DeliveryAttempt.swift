/// One attempt to deliver a subscription's item, as the delivery log (`ledger.deliveries`) keeps it.
public struct DeliveryAttempt: Sendable, Equatable, Codable {
    /// The item's id (``WebhookItem/id``).
    public var item: String
    /// Its position.
    public var position: Int64
    /// The how-manieth attempt at this item (1 first).
    public var attempt: Int
    /// When it was made.
    public var attemptedAt: String
    /// The receiver's status code; nil when it gave none.
    public var status: Int?
    /// What went wrong on the way (refused connection, time-out), when it did.
    public var error: String?
    /// How long it took, in milliseconds.
    public var latencyMs: Double

    /// An attempt from its parts.
    public init(item: String, position: Int64, attempt: Int, attemptedAt: String, status: Int?, error: String?, latencyMs: Double) {
        self.item = item
        self.position = position
        self.attempt = attempt
        self.attemptedAt = attemptedAt
        self.status = status
        self.error = error
        self.latencyMs = latencyMs
    }

    /// Whether the receiver took it (a 2xx).
    public var delivered: Bool { status.map { (200..<300).contains($0) } ?? false }
}
