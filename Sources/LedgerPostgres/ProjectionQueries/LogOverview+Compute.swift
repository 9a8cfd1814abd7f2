import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension LogOverview {
    /// The overview of `log` now.
    public static func compute(log: String, pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.console")) async throws -> LogOverview {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let checkpoint = try await CheckpointStore(pool: pool, logger: logger).latest(log: log)
        var age: Int64?
        if let checkpoint {
            let rows = try await pool.query("""
                SELECT extract(epoch FROM clock_timestamp() - signed_at)::bigint FROM ledger.checkpoints
                 WHERE log_id = \(log) AND tree_size = \(Int64(checkpoint.treeSize))
                """, logger: logger)
            for try await seconds in rows.decode(Int64.self) { age = seconds }
        }
        // The ledger's clock (recorded_at), which a device cannot skew: the 30 UTC days that end
        // with the newest event, read from the counts the append keeps (ledger.event_days).
        let rows = try await pool.query("""
            SELECT to_char(d.day, 'YYYY-MM-DD'), d.events
              FROM ledger.event_days d
             WHERE d.log_id = \(log)
               AND d.day > (SELECT max(n.day) FROM ledger.event_days n WHERE n.log_id = \(log)) - \(Int32(dayWindow))
             ORDER BY d.day
            """, logger: logger)
        var days: [Day] = []
        for try await (day, count) in rows.decode((String, Int64).self) { days.append(Day(day: day, events: Int(count))) }
        // The device's clock, from the events themselves (their (log_id, occurred_at) index): the
        // two differ when events were sent to the ledger late or all at once (an import).
        let occurredRows = try await pool.query("""
            WITH newest AS (
                SELECT (max(o.occurred_at) AT TIME ZONE 'UTC')::date AS day FROM ledger.events o
                 WHERE o.log_id = \(log)
                   AND o.occurred_at < ((SELECT max(n.day) FROM ledger.event_days n WHERE n.log_id = \(log)) + 1)::timestamp AT TIME ZONE 'UTC')
            SELECT to_char((e.occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)
              FROM ledger.events e, newest
             WHERE e.log_id = \(log)
               AND e.occurred_at >= (newest.day - \(Int32(dayWindow - 1)))::timestamp AT TIME ZONE 'UTC'
               AND e.occurred_at < (newest.day + 1)::timestamp AT TIME ZONE 'UTC'
             GROUP BY 1 ORDER BY 1
            """, logger: logger)
        var occurredDays: [Day] = []
        for try await (day, count) in occurredRows.decode((String, Int64).self) { occurredDays.append(Day(day: day, events: Int(count))) }
        let projections = try await ProjectionStatus.all(pool: pool, logger: logger).map { status in
            let place = status.logs.first { $0.log == log }
            let current = status.state == .current
            return Projection(name: status.projection, position: current ? place?.position ?? 0 : nil,
                              lag: current ? place?.lag ?? head.position : head.position, stalledAt: place?.stall?.position)
        }
        let (violations, anomalies) = try await ReportSource(pool: pool, logger: logger).with(
            log: log, position: head.position, projections: .findings
        ) { connection in
            var counts = (0, 0)
            for try await (source, count) in try await connection.watchedQuery(
                "SELECT source, count(*)::bigint FROM findings WHERE log_id = \(log) GROUP BY source", logger: logger
            ).decode((String, Int64).self) {
                if LedgerRule.Kind(findingSource: source) == .violation { counts.0 = Int(count) } else { counts.1 = Int(count) }
            }
            return counts
        }
        return LogOverview(head: head, checkpoint: checkpoint, checkpointAge: age, days: days, occurredDays: occurredDays, projections: projections,
                               violations: violations, anomalies: anomalies,
                               lastVerification: try await VerificationRecord.latest(log: log, pool: pool, logger: logger))
    }
}
