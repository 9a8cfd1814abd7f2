import LedgerCore

extension APIModel {
    /// One subject found (`SubjectEntry`): what the live projections know of it.
    public struct SubjectEntry: Codable, Sendable, Equatable {
        /// The pseudonym.
        public var subject: String
        /// The age category of its latest signal (null without one).
        public var ageCategory: String?
        /// Whether the subject's key was destroyed.
        public var erased: Bool
        /// Consent items in its register.
        public var consentItems: Int64
        /// Questions a parent denied.
        public var denials: Int64
        /// Consents rescinded.
        public var rescissions: Int64
        /// Rule violations found.
        public var violations: Int64
        /// The last position that concerned it.
        public var lastPosition: Int64

        /// An entry from its parts.
        public init(subject: String, ageCategory: String?, erased: Bool, consentItems: Int64, denials: Int64,
                    rescissions: Int64, violations: Int64, lastPosition: Int64) {
            self.subject = subject
            self.ageCategory = ageCategory
            self.erased = erased
            self.consentItems = consentItems
            self.denials = denials
            self.rescissions = rescissions
            self.violations = violations
            self.lastPosition = lastPosition
        }

        /// Writes `ageCategory` as null when there is none: the document requires the member.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(subject, forKey: .subject)
            try container.encode(ageCategory, forKey: .ageCategory)
            try container.encode(erased, forKey: .erased)
            try container.encode(consentItems, forKey: .consentItems)
            try container.encode(denials, forKey: .denials)
            try container.encode(rescissions, forKey: .rescissions)
            try container.encode(violations, forKey: .violations)
            try container.encode(lastPosition, forKey: .lastPosition)
        }
    }

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
