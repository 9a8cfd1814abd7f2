import Foundation

/// One page of a log's consent register for the console: filtered by status, app, period and
/// whether the guardian was disclosed, sorted by a column, paged. Read from the consent_register
/// projection at the log's head (the storage module's `ReportSource`: live when it is caught up).
public enum ConsentRegisterEntries {
    /// How many entries a page holds.
    public static let pageSize = 50

    /// What the entries are sorted by.
    public enum Sort: String, Sendable, CaseIterable {
        /// When the question was asked (device clock), the default.
        case asked
        /// When it was answered.
        case answered
        /// The subject's pseudonym.
        case subject
        /// The app.
        case app
        /// The status.
        case status
        /// How long the answer took.
        case wait
    }

    /// The filters, sort and page asked for.
    public struct Query: Sendable, Equatable {
        /// `approval`, `denial`, `expired`, `failed`, `pending` or `rescinded` (nil: any).
        public var status: String?
        /// The app's bundle id (nil: any).
        public var app: String?
        /// Asked at or after (nil: any).
        public var from: Date?
        /// Asked before (nil: any).
        public var to: Date?
        /// Whether the platform disclosed which guardian answered (nil: either).
        public var guardianDisclosed: Bool?
        /// The sort column.
        public var sort: Sort = .asked
        /// Newest (largest) first.
        public var descending = true
        /// The page, from 0.
        public var page = 0

        /// A query with no filter: the newest questions first.
        public init() {}

        /// The statuses an entry can have.
        public static let statuses = ["approval", "denial", "expired", "failed", "pending", "rescinded"]
    }

    /// One entry.
    public struct Entry: Sendable, Equatable {
        /// `question` or `exception`.
        public var kind: String
        /// The question or exception id.
        public var id: String
        /// Its subject.
        public var subject: String?
        /// The app that asked.
        public var app: String?
        /// The topic.
        public var topic: String?
        /// Its status.
        public var status: String
        /// When it was asked (RFC 3339), if known.
        public var askedAt: String?
        /// When it was answered.
        public var answeredAt: String?
        /// The guardian's pseudonym, when disclosed.
        public var answeredBy: String?
        /// Seconds from question to answer.
        public var waitSeconds: Int64?
        /// Every event it rests on.
        public var evidence: [Int64]

        /// A value from its parts (the storage module reads it from rows).
        package init(
            kind: String,
            id: String,
            subject: String? = nil,
            app: String? = nil,
            topic: String? = nil,
            status: String,
            askedAt: String? = nil,
            answeredAt: String? = nil,
            answeredBy: String? = nil,
            waitSeconds: Int64? = nil,
            evidence: [Int64]
        ) {
            self.kind = kind
            self.id = id
            self.subject = subject
            self.app = app
            self.topic = topic
            self.status = status
            self.askedAt = askedAt
            self.answeredAt = answeredAt
            self.answeredBy = answeredBy
            self.waitSeconds = waitSeconds
            self.evidence = evidence
        }
    }

    /// A page of entries.
    public struct Page: Sendable {
        /// The entries.
        public var entries: [Entry]
        /// How many entries match the filters in all.
        public var total: Int64
        /// How many entries of each status (as stored: `approval`, `denial`…) match the filters
        /// other than the status; a status no entry has is absent.
        public var statusCounts: [String: Int64]
        /// The apps that have entries, for the filter.
        public var apps: [String]
        /// The position the register is read at (the head).
        public var position: Int64

        /// A value from its parts (the storage module reads it from rows).
        package init(entries: [Entry], total: Int64, statusCounts: [String: Int64], apps: [String], position: Int64) {
            self.entries = entries
            self.total = total
            self.statusCounts = statusCounts
            self.apps = apps
            self.position = position
        }
    }
}
