import Foundation

/// A log's findings (the anomalies projection's violations and anomalies) as they are found, in log
/// order, after a reader's cursor: what `consent-ledger watch` prints and
/// `GET /v1/logs/{log}/findings/stream` sends (decision 0081). Nothing is kept for a reader: the
/// items are the projection's rows, so a reader that comes back with its cursor misses nothing, and
/// one that starts from the beginning gets every finding again.
public enum FindingsFeed {
    /// Where a reader stands: the last finding handed over, by the position it was found on and its
    /// rule (a position holds at most one finding per rule). Written `<position>.<rule>`
    /// (`12.access-after-denial`), the stream's event id; a bare position (`12`) stands after every
    /// finding of that position, and `0` is the start of the log.
    public struct Cursor: Sendable, Hashable, CustomStringConvertible {
        /// The position of the last finding handed over (0: none yet).
        public var position: Int64
        /// Its rule's id; nil when the cursor stands after every finding of `position`.
        public var rule: String?

        /// The start of the log: every finding comes after it.
        public static let start = Cursor(position: 0, rule: nil)

        /// A cursor from its parts.
        public init(position: Int64, rule: String?) {
            self.position = position
            self.rule = rule
        }

        /// A cursor from its written form: `<position>.<rule>` or a bare position. Nil when it is
        /// neither (``expected`` says what is).
        public init?(_ text: String) {
            let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first, first.allSatisfy(\.isASCII), let position = Int64(first), position >= 0 else { return nil }
            guard parts.count == 2 else {
                self.init(position: position, rule: nil)
                return
            }
            let rule = parts[1]
            guard !rule.isEmpty, rule.count <= 100, rule.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else { return nil }
            self.init(position: position, rule: String(rule))
        }

        /// `<position>.<rule>`, or the bare position.
        public var description: String { rule.map { "\(position).\($0)" } ?? String(position) }

        /// What a malformed cursor is told.
        public static let expected = "a cursor is <position>.<rule> as an item's id gives it (12.access-after-denial), or a position (12)"
    }

    /// One finding as the feed sends it.
    public struct Item: Sendable, Equatable, Codable {
        /// Its cursor, written: the stream's event id.
        public var id: String
        /// The log.
        public var log: String
        /// `violation` or `anomaly`.
        public var kind: String
        /// The rule's id (docs/rules.md).
        public var rule: String
        /// The position of the event it was found on.
        public var position: Int64
        /// That event's id.
        public var eventId: String
        /// The subject, when it has one.
        public var subject: String?
        /// What was found, in words.
        public var detail: String
        /// Every event it rests on, in log order.
        public var evidence: [Int64]

        /// An item from its parts.
        public init(log: String, kind: LedgerRule.Kind, rule: String, position: Int64, eventId: String, subject: String?,
                    detail: String, evidence: [Int64]) {
            self.id = Cursor(position: position, rule: rule).description
            self.log = log
            self.kind = kind.rawValue
            self.rule = rule
            self.position = position
            self.eventId = eventId
            self.subject = subject
            self.detail = detail
            self.evidence = evidence
        }

        /// The item's cursor.
        public var cursor: Cursor { Cursor(position: position, rule: rule) }
    }

    /// One read of the feed.
    public struct Page: Sendable, Equatable {
        /// The items after the cursor, in order.
        public var items: [Item]
        /// The position the anomalies projection has judged the log up to: no finding up to it
        /// can still appear (a rebuild with other rules aside).
        public var judgedThrough: Int64
        /// The log's head when it was read.
        public var head: Int64

        /// A page from its parts.
        public init(items: [Item], judgedThrough: Int64, head: Int64) {
            self.items = items
            self.judgedThrough = judgedThrough
            self.head = head
        }
    }

    /// The most items one read returns.
    public static let maxLimit = 1_000
}
