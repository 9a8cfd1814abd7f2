import LedgerPostgres
import PostgresNIO

/// A few lines of what the read models hold after the demo: for the tour, straight from the
/// projections' tables (the same a psql user would query).
enum DemoProjectionSummary {
    static func lines(log: String, pool: LedgerPool) async throws -> [String] {
        var lines: [String] = []
        func pairs(_ title: String, _ query: PostgresQuery) async throws {
            var parts: [String] = []
            for try await (key, count) in try await pool.query(query).decode((String, Int64).self) { parts.append("\(count) \(key)") }
            lines.append(title + (parts.isEmpty ? "none" : parts.joined(separator: ", ")))
        }
        try await pairs("subject_state.subjects by age category: ", """
            SELECT coalesce(age_category, 'no signal'), count(*) FROM subject_state.subjects WHERE log_id = \(log)
             GROUP BY 1 ORDER BY 2 DESC
            """)
        try await pairs("consent_register.entries by status: ", """
            SELECT status, count(*) FROM consent_register.entries WHERE log_id = \(log) GROUP BY 1 ORDER BY 2 DESC
            """)
        try await pairs("pending.open_items: ", """
            SELECT kind, count(*) FROM pending.open_items WHERE log_id = \(log) GROUP BY 1 ORDER BY 1
            """)
        try await pairs("significant_changes: ", """
            SELECT 'changes', count(*) FROM significant_changes.changes WHERE log_id = \(log)
            UNION ALL SELECT 'subjects asked', count(asked_position) FROM significant_changes.subjects WHERE log_id = \(log)
            """)
        try await pairs("anomalies.findings (stored all the same, as evidence): ", """
            SELECT kind, count(*) FROM anomalies.findings WHERE log_id = \(log) AND source = 'catalogue' GROUP BY 1 ORDER BY 1
            """)
        try await pairs("anomalies.violations: ", """
            SELECT kind, count(*) FROM anomalies.violations WHERE log_id = \(log) GROUP BY 1 ORDER BY 1
            """)
        return lines
    }
}
