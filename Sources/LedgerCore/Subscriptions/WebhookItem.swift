/// One item a subscription sends (decision 0083): an event of an asked type, or a finding of an
/// asked kind, at a position of the log. At a position the event comes first, then its findings by
/// rule, so a subscription's items are in log order. Its id is the position for an event (`12`) and
/// `<position>.<rule>` for a finding (`12.access-after-denial`, the stream's event id): unique within
/// the log, so a receiver can drop a delivery it has seen (delivery is at least once).
public struct WebhookItem: Sendable, Equatable {
    /// An event as a webhook carries it: its identity and its record, the exact JSON the ledger
    /// hashed into the log (personal fields sealed, as stored).
    public struct Event: Sendable, Equatable, Codable {
        /// The event's id.
        public var eventId: String
        /// Its type.
        public var type: String
        /// Its stream.
        public var stream: String
        /// Its subject, if it has one.
        public var subject: String?
        /// When it happened.
        public var occurredAt: String
        /// When the ledger recorded it.
        public var recordedAt: String
        /// The stored record.
        public var record: JSONValue

        /// An event from its parts.
        public init(eventId: String, type: String, stream: String, subject: String?, occurredAt: String, recordedAt: String, record: JSONValue) {
            self.eventId = eventId
            self.type = type
            self.stream = stream
            self.subject = subject
            self.occurredAt = occurredAt
            self.recordedAt = recordedAt
            self.record = record
        }
    }

    /// What it carries.
    public enum Content: Sendable, Equatable {
        /// An event of an asked type.
        case event(Event)
        /// A finding of an asked kind.
        case finding(FindingsFeed.Item)
    }

    /// The position it is at.
    public var position: Int64
    /// What it carries.
    public var content: Content

    /// An item from its parts.
    public init(position: Int64, content: Content) {
        self.position = position
        self.content = content
    }

    /// Its rule when it is a finding; nil for an event.
    public var rule: String? {
        if case .finding(let finding) = content { return finding.rule }
        return nil
    }

    /// Whether it is a `ConsentRescinded`: a withdrawal whose delivery the ledger records as a
    /// `WithdrawalDelivered` (decision 0084).
    public var isConsentRescinded: Bool {
        if case .event(let event) = content { return event.type == ConsentRescinded.eventType }
        return false
    }

    /// `12` for an event, `12.access-after-denial` for a finding.
    public var id: String { rule.map { "\(position).\($0)" } ?? String(position) }

    /// The body POSTed: canonical JSON of `{id, subscription, log, kind, position, event | finding}`.
    public func body(subscription: String, log: String) throws -> [UInt8] {
        var body = Body(id: id, subscription: subscription, log: log, kind: "event", position: position)
        switch content {
        case .event(let event): body.event = event
        case .finding(let finding):
            body.kind = "finding"
            body.finding = finding
        }
        return try CanonicalJSON.encode(encodable: body)
    }

    /// The body's shape (docs/subscriptions.md).
    public struct Body: Sendable, Equatable, Codable {
        /// The item's id.
        public var id: String
        /// The subscription it was sent for.
        public var subscription: String
        /// The log.
        public var log: String
        /// `event` or `finding`.
        public var kind: String
        /// The position.
        public var position: Int64
        /// The event, when ``kind`` is `event`.
        public var event: Event?
        /// The finding, when ``kind`` is `finding`.
        public var finding: FindingsFeed.Item?
    }
}
