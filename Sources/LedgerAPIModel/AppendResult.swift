import LedgerCore

extension APIModel {
    /// The answer to an append (`AppendResult`): 201 when stored, 200 when the batch was already
    /// stored under its idempotency key (`idempotentReplay`, nothing written).
    public struct AppendResult: Codable, Sendable, Equatable {
        /// One appended event: where it went.
        public typealias Event = AppendedEvent

        /// The log appended to.
        public var log: String
        /// True when the batch had been stored already: nothing was written.
        public var idempotentReplay: Bool
        /// The first event's position.
        public var firstPosition: Int64
        /// The last event's position.
        public var lastPosition: Int64
        /// The events, in position order.
        public var events: [Event]

        /// An answer from its events (first and last positions are theirs).
        public init(log: String, idempotentReplay: Bool, events: [Event]) {
            self.log = log
            self.idempotentReplay = idempotentReplay
            self.firstPosition = events.first?.position ?? 0
            self.lastPosition = events.last?.position ?? 0
            self.events = events
        }
    }
}
