import LedgerCore

extension APIModel {
    /// One subject found (`SubjectEntry`): what the live projections know of it.
    public typealias SubjectEntry = LedgerCore.SubjectEntry

    /// A page of subjects (`SubjectList`); `next` is the `after` of the next page, null on the last.
    public struct SubjectList: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The subjects, by pseudonym.
        public var subjects: [SubjectEntry]
        /// The pseudonym to pass as `after` for the next page; null on the last page.
        public var next: String?
        /// The position the projections had folded when answering.
        public var projectedThrough: Int64
        /// The log's head position then.
        public var head: Int64

        /// A page from its parts.
        public init(log: String, subjects: [SubjectEntry], next: String?, projectedThrough: Int64, head: Int64) {
            self.log = log
            self.subjects = subjects
            self.next = next
            self.projectedThrough = projectedThrough
            self.head = head
        }

        /// Writes `next` as null on the last page: the document requires the member.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(log, forKey: .log)
            try container.encode(subjects, forKey: .subjects)
            try container.encode(next, forKey: .next)
            try container.encode(projectedThrough, forKey: .projectedThrough)
            try container.encode(head, forKey: .head)
        }
    }

    /// A subject's state as of a position (`SubjectState`).
    public struct SubjectState: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The pseudonym.
        public var subject: String
        /// The position the state is as of.
        public var position: Int64
        /// The state: age category and declaration, parental controls, signals, features, consents.
        public var state: JSONValue

        /// A state from its parts.
        public init(log: String, subject: String, position: Int64, state: JSONValue) {
            self.log = log
            self.subject = subject
            self.position = position
            self.state = state
        }
    }
}
