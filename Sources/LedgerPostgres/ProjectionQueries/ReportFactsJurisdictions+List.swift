import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension ReportFactsJurisdictions {
    /// The jurisdictions of `log`, the most named first; none when the report_facts projection
    /// is not built yet.
    public static func list(log: String, pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.console")) async throws -> [Jurisdiction] {
        let statuses = try await ProjectionStatus.all(pool: pool, logger: logger)
        guard let status = statuses.first(where: { $0.projection == "report_facts" }), status.state != .missing else { return [] }
        var found: [Jurisdiction] = []
        for try await (code, events, first, last) in try await pool.query("""
            SELECT jurisdiction, sum(events)::bigint, to_char(min(day), 'YYYY-MM-DD'),
                   to_char(coalesce(max(day) FILTER (WHERE day <= (SELECT max(n.day) FROM ledger.event_days n WHERE n.log_id = \(log))),
                                    max(day)), 'YYYY-MM-DD')
              FROM report_facts.period_counts
             WHERE log_id = \(log) AND jurisdiction IS NOT NULL
             GROUP BY jurisdiction
             ORDER BY 2 DESC, 1
            """, logger: logger).decode((String, Int64, String, String).self) {
            found.append(Jurisdiction(code: code, events: events, firstDay: first, lastDay: last))
        }
        return found
    }
}
