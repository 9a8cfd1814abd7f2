extension APIModel {
    /// The body of `POST …/subjects/{subject}/erase` (`ErasureRequest`).
    public struct ErasureRequest: Codable, Sendable, Equatable {
        /// Why (`erasureRequest`, `retentionExpired`, …; the catalogue's `SubjectErased.reason`).
        public var reason: String
        /// The ticket or letter that asked for it.
        public var requestReference: String?
        /// The operator who carried it out (a pseudonym).
        public var operatorId: String?

        /// A request from its parts.
        public init(reason: String, requestReference: String? = nil, operatorId: String? = nil) {
            self.reason = reason
            self.requestReference = requestReference
            self.operatorId = operatorId
        }
    }

    /// The answer to an erasure (`ErasureResult`): the `SubjectErased` event's place.
    public struct ErasureResult: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The pseudonym whose key was destroyed.
        public var subject: String
        /// Always true.
        public var erased: Bool
        /// The position of `SubjectErased`.
        public var position: Int64
        /// Its event id.
        public var eventId: String

        /// A result from its parts.
        public init(log: String, subject: String, position: Int64, eventId: String) {
            self.log = log
            self.subject = subject
            self.erased = true
            self.position = position
            self.eventId = eventId
        }
    }
}
