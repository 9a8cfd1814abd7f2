import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension ConsentRegisterEntries {
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

extension ConsentRegisterEntries.Sort {
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
