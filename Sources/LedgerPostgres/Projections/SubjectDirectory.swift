import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Finds subjects without SQL: by the start of their pseudonym, and by what their history holds
/// (a parent's denial, a rescinded consent, a rule violation), from the live projections.
///
/// ```swift
/// let page = try await SubjectDirectory(pool: pool).find(log: "acme", prefix: "p_7f", has: .denial)
/// for entry in page.entries { print(entry.subject, entry.denials) }
/// ```
///
/// The projections may lag the log by the events not folded yet; ``Page/projectedThrough`` and
/// ``Page/head`` say how far they are, so a caller can say so (or run `project run` first).
public struct SubjectDirectory: Sendable {
    /// What a subject's history must hold to be listed (``SubjectMark``).
    public typealias Mark = SubjectMark

    /// One subject.
    public typealias Entry = SubjectEntry

    /// One page of a listing (``SubjectListing``).
    public typealias Page = SubjectListing

    /// The most one page holds.
    public static let maxLimit = SubjectListing.maxLimit
    /// The longest pseudonym (docs/openapi.json's `subject` pattern): a longer prefix matches nothing.
    public static let maxPseudonymLength = SubjectPseudonym.maxLength

    /// The pool to read with.
    public let pool: LedgerPool
    /// Where statements are logged.
    public let logger: Logger

    /// Creates a directory reader.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.subjects")) {
        self.pool = pool
        self.logger = logger
    }

    /// The subjects of `log` whose pseudonym starts with `prefix` (all when empty) and, when
    /// `has` is given, whose history holds that mark; at most `limit`, after the pseudonym `after`.
    ///
    /// - Throws: `log-not-found`; `invalid-request` for a limit out of 1...``maxLimit``, or a
    ///   prefix or `after` longer than a pseudonym can be (``maxPseudonymLength``);
    ///   `schema-missing` when the projections are not built yet.
    public func find(log: String, prefix: String = "", has: Mark? = nil, limit: Int = 100, after: String? = nil) async throws -> Page {
        guard (1...Self.maxLimit).contains(limit) else {
            throw LedgerError(.invalidRequest, "limit must be from 1 to \(Self.maxLimit), not \(limit)", field: "limit")
        }
        for (name, text) in [("prefix", prefix), ("after", after ?? "")] where text.unicodeScalars.count > Self.maxPseudonymLength {
            throw LedgerError(.invalidRequest, "\(name) is \(text.unicodeScalars.count) characters; a pseudonym has at most \(Self.maxPseudonymLength)",
                              field: name)
        }
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log).position
        var projectedThrough = head
        let statuses = try await ProjectionStatus.all(pool: pool)
        for name in ["subject_state", "consent_register", "anomalies"] {
            let status = statuses.first { $0.projection == name }
            guard let status, status.state != .missing else {
                throw LedgerError(.schemaMissing, "the \(name) projection is not built, so subjects cannot be listed yet",
                                  hint: "Run `consent-ledger project run` (or `serve`, which keeps the projections up).")
            }
            projectedThrough = min(projectedThrough, status.logs.first { $0.log == log }?.position ?? 0)
        }
        let mark = has?.rawValue
        var entries: [Entry] = []
        let rows = try await pool.query("""
            WITH known AS (
                SELECT subject FROM subject_state.subjects WHERE log_id = \(log) AND starts_with(subject, \(prefix))
                UNION SELECT subject FROM consent_register.entries
                       WHERE log_id = \(log) AND subject IS NOT NULL AND starts_with(subject, \(prefix))
                UNION SELECT subject FROM anomalies.rescissions WHERE log_id = \(log) AND starts_with(subject, \(prefix))
            ), counted AS (
                SELECT k.subject, s.age_category, coalesce(s.erased, false) AS erased,
                       (SELECT count(*) FROM consent_register.entries e WHERE e.log_id = \(log) AND e.subject = k.subject) AS items,
                       (SELECT count(*) FROM consent_register.entries e
                         WHERE e.log_id = \(log) AND e.subject = k.subject AND e.answer = 'denial') AS denials,
                       (SELECT count(*) FROM anomalies.rescissions r WHERE r.log_id = \(log) AND r.subject = k.subject) AS rescissions,
                       (SELECT count(*) FROM anomalies.violations v WHERE v.log_id = \(log) AND v.subject = k.subject) AS violations,
                       greatest(s.updated_position,
                                (SELECT max(greatest(e.asked_position, e.answered_position, e.expired_position, e.failed_position,
                                                     e.rescinded_position))
                                   FROM consent_register.entries e WHERE e.log_id = \(log) AND e.subject = k.subject),
                                (SELECT max(r.position) FROM anomalies.rescissions r WHERE r.log_id = \(log) AND r.subject = k.subject)
                       ) AS last_position
                  FROM known k LEFT JOIN subject_state.subjects s ON s.log_id = \(log) AND s.subject = k.subject
                 WHERE \(after)::text IS NULL OR k.subject > \(after)
            )
            SELECT subject, age_category, erased, items, denials, rescissions, violations, coalesce(last_position, 0)
              FROM counted
             WHERE \(mark)::text IS NULL
                OR (\(mark) = 'denial' AND denials > 0)
                OR (\(mark) = 'rescission' AND rescissions > 0)
                OR (\(mark) = 'violation' AND violations > 0)
             ORDER BY subject
             LIMIT \(limit + 1)
            """, logger: logger)
        for try await (subject, category, erased, items, denials, rescissions, violations, last)
            in rows.decode((String, String?, Bool, Int64, Int64, Int64, Int64, Int64).self) {
            entries.append(Entry(subject: subject, ageCategory: category, erased: erased, consentItems: items, denials: denials,
                                 rescissions: rescissions, violations: violations, lastPosition: last))
        }
        let more = entries.count > limit
        if more { entries.removeLast() }
        return Page(entries: entries, next: more ? entries.last?.subject : nil, projectedThrough: projectedThrough, head: head)
    }
}
