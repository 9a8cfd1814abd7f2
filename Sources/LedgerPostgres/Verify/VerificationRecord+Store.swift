import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension VerificationRecord {
    /// Stores `record` for `log`, when the pool's role may record verifications (the application
    /// role and the owner; the auditor only reads, so that no auditor's psql can store a "passed"
    /// it never ran). Returns whether it was stored.
    @discardableResult
    public static func record(_ record: VerificationRecord, log: String, pool: LedgerPool, logger: Logger) async throws -> Bool {
        let may = try await pool.query("""
            SELECT has_function_privilege('ledger.record_verification(text, text, boolean, bigint, bigint, text, text)', 'EXECUTE')
            """, logger: logger).decode(Bool.self).first { _ in true }
        guard may == true else { return false }
        _ = try await pool.query("""
            SELECT ledger.record_verification(\(log), \(record.scope), \(record.passed), \(record.eventsChecked), \(record.headPosition),
                                              \(record.summary), \(record.verifiedBy))
            """, logger: logger)
        return true
    }

    /// What `verify` says when its role could not record what it found.
    public static let notRecordedNote = "not recorded in ledger.verifications: this role only reads (the auditor); verify with the "
        + "application role's or the owner's database URL to record it for the console and the reports"

    /// The newest `verify --projections` of `log` (nil: never run), and the newest that passed
    /// with every projection proven to a position at or below `atOrBelow`.
    public static func projectionProofs(log: String, atOrBelow: Int64, pool: LedgerPool,
                                        logger: Logger) async throws -> (newest: VerificationRecord?, passed: VerificationRecord?) {
        func one(_ query: PostgresQuery) async throws -> VerificationRecord? {
            for try await (at, scope, passed, checked, head, summary, by) in try await pool.query(query, logger: logger)
                .decode((String, String, Bool, Int64, Int64, String, String).self) {
                return VerificationRecord(verifiedAt: at, scope: scope, passed: passed, eventsChecked: checked, headPosition: head,
                                          summary: summary, verifiedBy: by)
            }
            return nil
        }
        let newest = try await one("""
            SELECT \(unescaped: columns) FROM ledger.verifications
             WHERE log_id = \(log) AND scope = 'projections' ORDER BY verified_at DESC LIMIT 1
            """)
        let passed = try await one("""
            SELECT \(unescaped: columns) FROM ledger.verifications
             WHERE log_id = \(log) AND scope = 'projections' AND passed AND head_position <= \(atOrBelow)
             ORDER BY head_position DESC, verified_at DESC LIMIT 1
            """)
        return (newest, passed)
    }

    private static let columns = """
        to_char(verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), scope, passed, events_checked, head_position, summary, verified_by
        """

    /// The newest verification of `log`, if any.
    public static func latest(log: String, pool: LedgerPool, logger: Logger) async throws -> VerificationRecord? {
        let rows = try await pool.query("""
            SELECT to_char(verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), scope, passed, events_checked, head_position,
                   summary, verified_by
              FROM ledger.verifications WHERE log_id = \(log) ORDER BY verified_at DESC LIMIT 1
            """, logger: logger)
        for try await (at, scope, passed, checked, head, summary, by) in rows.decode((String, String, Bool, Int64, Int64, String, String).self) {
            return VerificationRecord(verifiedAt: at, scope: scope, passed: passed, eventsChecked: checked, headPosition: head, summary: summary,
                                      verifiedBy: by)
        }
        return nil
    }
}
