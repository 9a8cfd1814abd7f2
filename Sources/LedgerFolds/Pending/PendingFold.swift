import LedgerCore

/// The `pending` projection's fold (projections/pending/tables.sql): a question or an age-rating
/// exception request opens an item on its first ask; the first answer, decision, expiry or failure
/// after it (by position) closes it. A closed item keeps its row, so the same question sent again
/// cannot reopen it.
///
/// A range is folded over what the stored rows say of the keys it touches (``Stored``), loaded
/// before it; the fold then says which items are new (``opened``) and which stored ones it closed
/// (``closedStored``).
public struct PendingFold: Sendable {
    /// An item: a question or an exception request (``ItemKey``).
    public typealias Key = ItemKey

    /// What the stored row of an item says, for the fold.
    public struct Stored: Sendable {
        /// Its ask's position.
        public var askedPosition: Int64
        /// Whether it is closed.
        public var isClosed: Bool

        /// Creates it.
        public init(askedPosition: Int64, isClosed: Bool) {
            self.askedPosition = askedPosition
            self.isClosed = isClosed
        }
    }

    /// A new row of `pending.items`.
    public struct Item: Sendable, Equatable {
        /// Which item.
        public var key: Key
        /// The column `subject` (snake_case in the projection's tables.sql).
        public var subject: String?
        /// The column `bundleId` (snake_case in the projection's tables.sql).
        public var bundleId: String?
        /// ``LedgerEvent/topic``.
        public var topic: String?
        /// The question's own `changeId`, as sent.
        public var changeId: String?
        /// An exception's `appleItemID`.
        public var ratedApp: Int?
        /// The ask's `occurredAt`.
        public var askedAt: String
        /// The column `askedPosition` (snake_case in the projection's tables.sql).
        public var askedPosition: Int64
        /// The column `askedEventId` (snake_case in the projection's tables.sql).
        public var askedEventId: String
        /// A question's `expirationDate`.
        public var expiresAt: String?
        /// The type of the event that closed it.
        public var closedBy: String?
        /// The column `closedPosition` (snake_case in the projection's tables.sql).
        public var closedPosition: Int64?
    }

    /// A stored item this range closed.
    public struct Closing: Sendable, Equatable {
        /// Which item.
        public var key: Key
        /// The closing event's type.
        public var type: String
        /// The column `position` (snake_case in the projection's tables.sql).
        public var position: Int64
    }

    /// The stored rows of the keys the range touches.
    public var stored: [Key: Stored]
    /// The items the range opened, in the order of their asks.
    public private(set) var opened: [Item] = []
    /// The stored items the range closed.
    public private(set) var closedStored: [Closing] = []
    private var openedIndex: [Key: Int] = [:]
    private var closedIndex: Set<Key> = []

    /// A fold over `stored` (the stored rows of ``keys(in:)``).
    public init(stored: [Key: Stored]) {
        self.stored = stored
    }

    /// The event types the fold reads.
    public static let reads = [
        PermissionQuestionSent.eventType, PermissionQuestionFailed.eventType, ParentalAnswerReceived.eventType,
        QuestionExpired.eventType, AgeExceptionRequested.eventType, AgeExceptionDecided.eventType,
    ]

    /// The item `event` opens or closes, if any.
    public static func key(of event: LedgerEvent) -> Key? { ItemKey.of(event) }

    /// The keys `events` touch: the stored rows to load before folding them.
    public static func keys(in events: [LedgerEvent]) -> Set<Key> { Set(events.compactMap(key(of:))) }

    /// Folds one event (in position order).
    public mutating func apply(_ event: LedgerEvent) {
        guard let key = Self.key(of: event) else { return }
        let envelope = event.envelope
        switch event.body {
        case .permissionQuestionSent(let p):
            open(Item(key: key, subject: envelope.subject, bundleId: event.bundleId, topic: event.topic, changeId: p.changeId,
                      askedAt: envelope.occurredAt, askedPosition: event.position, askedEventId: envelope.eventId,
                      expiresAt: p.expirationDate))
        case .ageExceptionRequested(let p):
            open(Item(key: key, subject: envelope.subject, bundleId: event.bundleId, topic: event.topic, ratedApp: p.appleItemID,
                      askedAt: envelope.occurredAt, askedPosition: event.position, askedEventId: envelope.eventId))
        case .parentalAnswerReceived, .questionExpired, .permissionQuestionFailed, .ageExceptionDecided:
            close(key, by: envelope.type, at: event.position)
        case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
             .significantChangeDeclared, .significantChangeAcknowledged, .consentRescinded, .accessGateApplied,
             .deviceRatingLimitObserved, .installAttempted, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore, .playAgeSignalReceived,
             .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            return
        }
    }

    private mutating func open(_ item: Item) {
        guard stored[item.key] == nil, openedIndex[item.key] == nil else { return }
        openedIndex[item.key] = opened.count
        opened.append(item)
    }

    private mutating func close(_ key: Key, by type: String, at position: Int64) {
        if let index = openedIndex[key] {
            guard opened[index].askedPosition < position, opened[index].closedPosition == nil else { return }
            opened[index].closedBy = type
            opened[index].closedPosition = position
        } else if let row = stored[key], row.askedPosition < position, !row.isClosed, !closedIndex.contains(key) {
            closedIndex.insert(key)
            closedStored.append(Closing(key: key, type: type, position: position))
        }
    }
}
