import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The findings of a log (the anomalies projection's rule violations and anomalies), newest first,
/// for the console's list: each with the event it was found on and every event it rests on.
public enum ConsoleFindings {
    /// One finding.
    public struct Finding: Sendable, Equatable {
        /// The rule's id (``RuleCatalogue``).
        public var rule: String
        /// `violation` or `anomaly`.
        public var kind: LedgerRule.Kind
        /// The event it was found on.
        public var position: Int64
        /// Its subject, when it has one.
        public var subject: String?
        /// What was found.
        public var detail: String
        /// Every event it rests on, in log order.
        public var evidence: [Int64]

        /// A finding from its parts.
        public init(rule: String, kind: LedgerRule.Kind, position: Int64, subject: String?, detail: String, evidence: [Int64]) {
            self.rule = rule
            self.kind = kind
            self.position = position
            self.subject = subject
            self.detail = detail
            self.evidence = evidence
        }
    }

    /// At most `limit` findings of `log` of `kind` (both when nil) below position `before`, newest
    /// first; only `subject`'s when it is given (a subject's page lists theirs).
    public static func list(log: String, kind: LedgerRule.Kind?, subject: String? = nil, limit: Int, before: Int64?, pool: LedgerPool,
                            logger: Logger = Logger(label: "consent-ledger.console")) async throws -> [Finding] {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let source: String? = kind.map { $0 == .violation ? "rule" : "catalogue" }
        return try await ReportSource(pool: pool, logger: logger).with(log: log, position: head.position, projections: .findings) { connection in
            var found: [Finding] = []
            for try await (rule, source, position, about, detail, evidence) in try await connection.watchedQuery("""
                SELECT kind, source, position, subject, detail, evidence FROM findings
                 WHERE log_id = \(log) AND (\(source)::text IS NULL OR source = \(source)) AND position < \(before ?? Int64.max)
                   AND (\(subject)::text IS NULL OR subject = \(subject))
                 ORDER BY position DESC, kind LIMIT \(Int64(limit))
                """, logger: logger).decode((String, String, Int64, String?, String, [Int64]).self) {
                found.append(Finding(rule: rule, kind: source == "rule" ? .violation : .anomaly, position: position, subject: about,
                                     detail: detail, evidence: evidence))
            }
            return found
        }
    }
}
