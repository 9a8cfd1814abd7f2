import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The checks that keep a question about a subject, a feature or a moment from being answered
/// falsely: a subject or feature the log has never seen is an error that names what the log does
/// have, not an empty answer ("CLOSED", "no events"); a moment before anything was recorded says
/// which clock it was read on and what the other clock would give.
public struct SubjectChecks: Sendable {
    /// The pool to read with.
    public let pool: LedgerPool
    /// Where statements are logged.
    public let logger: Logger

    /// Creates the checks.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.subjects")) {
        self.pool = pool
        self.logger = logger
    }

    /// Throws `subject-not-found` when `log` has no event about `subject`, naming pseudonyms of
    /// the log that start like it (a typo in a 34-character pseudonym is easy to make).
    public func requireSubject(log: String, subject: String) async throws {
        let rows = try await pool.query(
            "SELECT 1 FROM ledger.events WHERE log_id = \(log) AND subject = \(subject) LIMIT 1", logger: logger)
        for try await _ in rows.decode(Int.self) { return }
        var similar: [String] = []
        let stem = String(subject.prefix(max(3, min(8, subject.count - 2))))
        for try await name in try await pool.query("""
            SELECT DISTINCT subject FROM ledger.events
             WHERE log_id = \(log) AND subject IS NOT NULL AND starts_with(subject, \(stem))
             ORDER BY subject LIMIT 5
            """, logger: logger).decode(String.self) { similar.append(name) }
        throw LedgerError(.subjectNotFound, "log \(log) has no event about subject \(subject)",
                          hint: (similar.isEmpty ? "" : "Subjects of this log that start with \(stem): \(similar.joined(separator: ", ")). ")
                              + "Find a subject with `consent-ledger subjects --log \(log) --prefix P` (or GET /v1/logs/\(log)/subjects?prefix=P).")
    }

    /// Throws `feature-not-found` when no AccessGateApplied of `log` names `feature`, listing the
    /// features the log does gate. A feature gated for other subjects only is not an error: that
    /// it was never opened for this one is the answer.
    public func requireFeature(log: String, feature: String) async throws {
        // Asked first, then listed: the list for the hint stops at 50 names, and a feature after
        // them alphabetically was once "not found" for that reason.
        for try await found in try await pool.query("""
            SELECT EXISTS (SELECT 1 FROM ledger.events WHERE log_id = \(log) AND type = 'AccessGateApplied'
                             AND convert_from(record, 'UTF8')::jsonb #>> '{event,payload,feature}' = \(feature))
            """, logger: logger).decode(Bool.self) where found { return }
        var known: [String] = []
        for try await name in try await pool.query("""
            SELECT DISTINCT convert_from(record, 'UTF8')::jsonb #>> '{event,payload,feature}' AS feature
              FROM ledger.events WHERE log_id = \(log) AND type = 'AccessGateApplied'
             ORDER BY 1 LIMIT 50
            """, logger: logger).decode(String?.self) {
            if let name { known.append(name) }
        }
        throw LedgerError(.featureNotFound, "no AccessGateApplied of log \(log) names the feature \(feature)",
                          hint: known.isEmpty ? "This log has no AccessGateApplied events at all."
                              : "Features gated in this log: \(known.joined(separator: ", ")).")
    }

    /// A sentence for a moment that takes no event of `log` (or of `subject`): when the first
    /// event was recorded and when the first occurred, and, for a time read on one clock, how many
    /// events the other clock would take. Nil when the moment takes some event.
    public func emptyMoment(log: String, subject: String?, asOf: AsOf) async throws -> String? {
        let cut: Date
        switch asOf {
        case .head, .position: return nil
        case .recordedAt(let date), .occurredAt(let date): cut = date
        }
        let rows = try await pool.query("""
            SELECT count(*) FILTER (WHERE recorded_at <= \(cut)), count(*) FILTER (WHERE occurred_at <= \(cut)),
                   to_char(min(recorded_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   to_char(min(occurred_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              FROM ledger.events WHERE log_id = \(log) AND (\(subject)::text IS NULL OR subject = \(subject))
            """, logger: logger)
        for try await (recorded, occurred, firstRecorded, firstOccurred) in rows.decode((Int64, Int64, String?, String?).self) {
            let whose = subject.map { "subject \($0) in log \(log)" } ?? "log \(log)"
            guard let firstRecorded, let firstOccurred else { return "\(whose) has no events at all" }
            switch asOf {
            case .recordedAt where recorded == 0:
                return "nothing of \(whose) was recorded by then: --as-of times are read on the ledger's clock (recordedAt) "
                    + "unless --clock occurred is given; the first event was recorded at \(firstRecorded)"
                    + (occurred > 0 ? ". By the device's clock (--clock occurred) \(occurred) event\(occurred == 1 ? "" : "s") had occurred by then, "
                        + "reported to the ledger later (backfilled)" : "")
            case .occurredAt where occurred == 0:
                return "nothing of \(whose) had occurred by then by the device's clock (--clock occurred); the first event occurred at \(firstOccurred)"
            default: return nil
            }
        }
        return nil
    }
}
