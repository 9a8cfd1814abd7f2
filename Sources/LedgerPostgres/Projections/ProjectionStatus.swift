import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Where each projection stands: built or not, with the current definition or a stale one, and
/// per log its checkpoint, the log's head and the lag between them, and where a log stalled.
public struct ProjectionStatus: Sendable, Equatable {
    /// The projection.
    public var projection: String
    /// Whether its live tables exist and were built by this software's definition.
    public var state: State
    /// One entry per log (empty when the projection is not built).
    public var logs: [LogPosition]

    /// A projection's build state.
    public enum State: Sendable, Equatable {
        /// Built with the current definition.
        case current
        /// Built with another definition (hash given): `project run` rebuilds it.
        case stale(builtWith: String)
        /// Not built.
        case missing
    }

    /// A projection's position on one log.
    public struct LogPosition: Sendable, Equatable {
        /// The log.
        public var log: String
        /// The position folded up to.
        public var position: Int64
        /// The log's head.
        public var head: Int64
        /// When the checkpoint last moved, if ever.
        public var updatedAt: Date?
        /// Set when the projection stopped on this log at an event its fold could not take.
        public var stall: ProjectionStall?
        /// Events not folded yet.
        public var lag: Int64 { max(0, head - position) }
    }

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
