import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension ProjectionStatus {
    /// The status of every projection.
    public static func all(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.projections"))
        async throws -> [ProjectionStatus] {
        try await pool.withConnection { connection in
            var result: [ProjectionStatus] = []
            for projection in ProjectionDefinition.all {
                guard let built = try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger) else {
                    result.append(ProjectionStatus(projection: projection.name, state: .missing, logs: []))
                    continue
                }
                let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
                    SELECT l.log_id, coalesce(c.position, 0), l.head_position, c.updated_at, \(ProjectionStall.columns)
                      FROM ledger.logs l
                      LEFT JOIN \(ProjectionSchema.quoted(projection.name)).checkpoints c ON c.log_id = l.log_id
                     ORDER BY l.log_id
                    """), logger: logger)
                var logs: [LogPosition] = []
                for try await (log, position, head, updated, stalledAt, eventId, error, since) in rows.decode(
                    (String, Int64, Int64, Date?, Int64?, UUID?, String?, Date?).self) {
                    let stall = ProjectionStall.make(projection.name, log: log, position: stalledAt, eventId: eventId,
                                                     error: error, since: since)
                    logs.append(LogPosition(log: log, position: position, head: head, updatedAt: updated, stall: stall))
                }
                result.append(ProjectionStatus(projection: projection.name,
                                               state: built == projection.definitionHash ? .current : .stale(builtWith: built),
                                               logs: logs))
            }
            return result
        }
    }
}
