import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension FindingsFeed {
    /// The channel the projection runner notifies on when it has folded a log further (payload
    /// `<projection>/<log>`, sent at the fold's commit; ``ProjectionRunner``).
    public static let foldedChannel = "consent_ledger_folded"

    /// At most `limit` findings of `log` after `cursor`, of `kind` only when given, in log order
    /// (then by rule), from the live anomalies projection, with the position it has judged the log
    /// up to; one snapshot, so an item and `judgedThrough` agree. Throws `log-not-found` for a log
    /// that does not exist, and `projection-not-ready` when the projection is not built.
    public static func read(log: String, after cursor: Cursor, kind: LedgerRule.Kind?, limit: Int, pool: LedgerPool,
                            logger: Logger = Logger(label: "consent-ledger.findings")) async throws -> Page {
        let source: String? = kind?.findingSource
        let limit = Int64(min(max(1, limit), maxLimit))
        let page: Page? = try await pool.withConnection { connection in
            try await connection.inTransaction(logger: logger, beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
                guard try await ProjectionSchema.exists("anomalies", on: connection, logger: logger) else {
                    throw LedgerError(.projectionNotReady, "the anomalies projection is not built, so there are no findings to follow yet",
                                      hint: "Run `consent-ledger project run` once, or start `consent-ledger serve`, which builds and follows it.")
                }
                var bounds: (head: Int64, judged: Int64?)?
                for try await row in try await connection.watchedQuery("""
                    SELECT l.head_position,
                           (SELECT c.position FROM anomalies.checkpoints c WHERE c.log_id = l.log_id)
                      FROM ledger.logs l WHERE l.log_id = \(log)
                    """, logger: logger).decode((Int64, Int64?).self) { bounds = row }
                guard let bounds else { return nil }
                var items: [Item] = []
                for try await (rule, found, position, eventId, subject, detail, evidence) in try await connection.watchedQuery("""
                    SELECT kind, source, position, event_id::text, subject, detail, evidence FROM anomalies.findings
                     WHERE log_id = \(log)
                       AND (position > \(cursor.position)
                            OR (position = \(cursor.position) AND \(cursor.rule)::text IS NOT NULL AND kind COLLATE "C" > \(cursor.rule)))
                       AND (\(source)::text IS NULL OR source = \(source))
                     ORDER BY position, kind COLLATE "C" LIMIT \(limit)
                    """, logger: logger).decode((String, String, Int64, String, String?, String, [Int64]).self) {
                    items.append(Item(log: log, kind: LedgerRule.Kind(findingSource: found), rule: rule, position: position,
                                      eventId: eventId, subject: subject, detail: detail, evidence: evidence))
                }
                return Page(items: items, judgedThrough: bounds.judged ?? 0, head: bounds.head)
            }
        }
        guard let page else {
            // No such log: requireHead says so, naming the logs there are. (One made since the read
            // above is read next time.)
            _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
            return Page(items: [], judgedThrough: 0, head: 0)
        }
        return page
    }
}
