import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension AnomalyFindings {
    /// At most `limit` findings of `log` of `kind` (both when nil) below position `before`, newest
    /// first; only `subject`'s when it is given (a subject's page lists theirs).
    public static func list(log: String, kind: LedgerRule.Kind?, subject: String? = nil, limit: Int, before: Int64?, pool: LedgerPool,
                            logger: Logger = Logger(label: "consent-ledger.console")) async throws -> [Finding] {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let source: String? = kind?.findingSource
        return try await ReportSource(pool: pool, logger: logger).with(log: log, position: head.position, projections: .findings) { connection in
            var found: [Finding] = []
            for try await (rule, source, position, about, detail, evidence) in try await connection.watchedQuery("""
                SELECT kind, source, position, subject, detail, evidence FROM findings
                 WHERE log_id = \(log) AND (\(source)::text IS NULL OR source = \(source)) AND position < \(before ?? Int64.max)
                   AND (\(subject)::text IS NULL OR subject = \(subject))
                 ORDER BY position DESC, kind LIMIT \(Int64(limit))
                """, logger: logger).decode((String, String, Int64, String?, String, [Int64]).self) {
                found.append(Finding(rule: rule, kind: LedgerRule.Kind(findingSource: source), position: position, subject: about,
                                     detail: detail, evidence: evidence))
            }
            return found
        }
    }
}
