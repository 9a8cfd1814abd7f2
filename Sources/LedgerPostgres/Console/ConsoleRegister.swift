import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// One page of a log's consent register for the console: filtered by status, app, period and
/// whether the guardian was disclosed, sorted by a column, paged. Read from the consent_register
/// projection at the log's head (``ReportSource``: live when it is caught up).
public enum ConsoleRegister {
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

        /// The ORDER BY expression.
        var column: String {
            switch self {
            case .asked: return "asked_at"
            case .answered: return "answered_at"
            case .subject: return "subject"
            case .app: return "bundle_id"
            case .status: return "status"
            case .wait: return "time_to_answer"
            }
        }
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
    }

    /// The page of `log`'s register `query` asks for.
    public static func page(log: String, query: Query, pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.console")) async throws -> Page {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        return try await ReportSource(pool: pool, logger: logger).with(log: log, position: head.position, projections: .consentRegister) { connection in
            // The filters, written once for the count and the page.
            var binds = PostgresBindings(capacity: 8)
            binds.append(log)
            binds.append(query.status)
            binds.append(query.app)
            binds.append(query.from)
            binds.append(query.to)
            binds.append(query.guardianDisclosed)
            let others = """
                WHERE log_id = $1 AND ($3::text IS NULL OR bundle_id = $3)
                  AND ($4::timestamptz IS NULL OR asked_at >= $4) AND ($5::timestamptz IS NULL OR asked_at < $5)
                  AND ($6::boolean IS NULL OR (answered_by IS NOT NULL) = $6)
                """
            let filters = others + " AND ($2::text IS NULL OR status = $2)"
            // The count of each status under the other filters: the page's totals, and (the
            // chosen status's, or their sum) how many entries match.
            var counts: [String: Int64] = [:]
            for try await (status, count) in try await connection.watchedQuery(
                // $2 (the status) is bound for the page's query; here it is only typed, never a filter.
                PostgresQuery(unsafeSQL: "SELECT status, count(*) FROM entries \(others) AND $2::text IS NOT DISTINCT FROM $2::text GROUP BY status",
                              binds: binds), logger: logger
            ).decode((String, Int64).self) { counts[status] = count }
            let total = query.status.map { counts[$0] ?? 0 } ?? counts.values.reduce(0, +)
            // The page apart from the count, so that PostgreSQL keeps only the top rows of its
            // sort (a count over the window would make it sort every match).
            binds.append(Int64(pageSize))
            binds.append(Int64(query.page) * Int64(pageSize))
            let order = "\(query.sort.column) \(query.descending ? "DESC" : "ASC") NULLS LAST, kind, item_id"
            var entries: [Entry] = []
            for try await (kind, id, subject, app, topic, status, asked, answered, by, wait, evidence) in try await connection.watchedQuery(
                PostgresQuery(unsafeSQL: """
                    SELECT kind, item_id, subject, bundle_id, topic, status,
                           to_char(asked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           to_char(answered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           answered_by, extract(epoch FROM time_to_answer)::bigint, evidence_positions
                      FROM entries
                    \(filters)
                     ORDER BY \(order) LIMIT $7 OFFSET $8
                    """, binds: binds), logger: logger
            ).decode((String, String, String?, String?, String?, String, String?, String?, String?, Int64?, [Int64]).self) {
                entries.append(Entry(kind: kind, id: id, subject: subject, app: app, topic: topic, status: status, askedAt: asked,
                                     answeredAt: answered, answeredBy: by, waitSeconds: wait, evidence: evidence))
            }
            var apps: [String] = []
            for try await app in try await connection.watchedQuery(
                "SELECT DISTINCT bundle_id FROM entries WHERE log_id = \(log) AND bundle_id IS NOT NULL ORDER BY 1", logger: logger
            ).decode(String.self) { apps.append(app) }
            return Page(entries: entries, total: total, statusCounts: counts, apps: apps, position: head.position)
        }
    }
}
