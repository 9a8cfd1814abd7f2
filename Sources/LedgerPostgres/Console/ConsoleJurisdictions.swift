import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The jurisdictions a log's events name, for the console's report form: each with how many
/// events name it and the UTC days (device clock, as reports cut periods) they occurred on. Read
/// from the regulator report's own counts (report_facts' period_counts), so it costs thousands of
/// rows, not the log; counts of events, no subject's data.
public enum ConsoleJurisdictions {
    /// One jurisdiction of the log.
    public struct Jurisdiction: Sendable, Equatable {
        /// Its code (`US-TX`, `GB`).
        public var code: String
        /// How many events name it.
        public var events: Int64
        /// The first and the last UTC day (`YYYY-MM-DD`, device clock) an event naming it occurred
        /// on; the last no later than the newest day the ledger recorded (a device clock set in the
        /// future does not stretch the period).
        public var firstDay: String, lastDay: String

        /// A jurisdiction from its parts.
        public init(code: String, events: Int64, firstDay: String, lastDay: String) {
            self.code = code
            self.events = events
            self.firstDay = firstDay
            self.lastDay = lastDay
        }
    }

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
