import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension ProjectionStall {
    /// The columns of `checkpoints` that hold a stall, as `SELECT`ed by ``read(_:schema:on:logger:)``.
    /// Read through `to_jsonb` so that a schema built before stalls existed (a stale build) reads as
    /// having none rather than failing.
    static let columns = """
        (to_jsonb(c) ->> 'stall_position')::bigint, (to_jsonb(c) ->> 'stall_event_id')::uuid,
        to_jsonb(c) ->> 'stall_error', (to_jsonb(c) ->> 'stalled_since')::timestamptz
        """

    /// The stalls recorded in `schema`'s checkpoints (the live schema by default).
    static func read(_ projection: String, schema: String? = nil, on connection: PostgresConnection,
                     logger: Logger) async throws -> [ProjectionStall] {
        let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
            SELECT c.log_id, \(columns)
              FROM \(ProjectionSchema.quoted(schema ?? projection)).checkpoints c
             WHERE to_jsonb(c) ->> 'stall_position' IS NOT NULL
             ORDER BY c.log_id
            """), logger: logger)
        var stalls: [ProjectionStall] = []
        for try await (log, position, eventId, error, since) in rows.decode((String, Int64?, UUID?, String?, Date?).self) {
            if let stall = make(projection, log: log, position: position, eventId: eventId, error: error, since: since) {
                stalls.append(stall)
            }
        }
        return stalls
    }

    /// A stall from the columns of one checkpoint row, or nil when they hold none.
    static func make(_ projection: String, log: String, position: Int64?, eventId: UUID?, error: String?,
                     since: Date?) -> ProjectionStall? {
        guard let position, let eventId, let error, let since else { return nil }
        return ProjectionStall(projection: projection, log: log, position: position, eventId: eventId, error: error, since: since)
    }

    /// Records (or, when the same position stalls again, refreshes) the stall of `log` at
    /// `position` in the checkpoints of the session's `search_path`, and returns it.
    static func record(_ projection: String, log: String, position: Int64, error: String, on connection: PostgresConnection,
                       logger: Logger) async throws -> ProjectionStall {
        let rows = try await connection.watchedQuery("""
            UPDATE checkpoints
               SET stall_position = \(position),
                   stall_event_id = (SELECT e.event_id FROM ledger.events e WHERE e.log_id = \(log) AND e.position = \(position)),
                   stall_error = \(error),
                   stalled_since = CASE WHEN stall_position = \(position) THEN stalled_since ELSE clock_timestamp() END,
                   stall_retried_at = clock_timestamp()
             WHERE log_id = \(log)
            RETURNING stall_event_id, stalled_since
            """, logger: logger)
        for try await (eventId, since) in rows.decode((UUID, Date).self) {
            return ProjectionStall(projection: projection, log: log, position: position, eventId: eventId, error: error, since: since)
        }
        throw LedgerError(.databaseError, "no checkpoint row for log \(log) in \(projection) to record a stall in")
    }

    /// The SQL fragment that clears a stall, for the `UPDATE checkpoints SET …` that moves the
    /// checkpoint past it.
    static let clearSQL = "stall_position = NULL, stall_event_id = NULL, stall_error = NULL, stalled_since = NULL, stall_retried_at = NULL"

    /// The error of a fold or staging statement that failed on what it was given (the events or
    /// the fold's SQL), as `message (SQLSTATE s)`; nil for any other error (a lost connection, a
    /// cancelled or conflicting transaction, a full disk), which must not be pinned on an event
    /// and is thrown as it is.
    ///
    /// The SQLSTATE classes taken: 21 cardinality, 22 data exception, 23 integrity constraint,
    /// 2F/38/39 routine exceptions, 42 syntax error or undefined object, P0 raised by PL/pgSQL.
    static func foldFailure(_ error: any Error) -> String? {
        if let unreadable = error as? LogReader.UnreadableEvent { return unreadable.message }
        guard let error = error as? PSQLError, let info = error.serverInfo, let state = info[.sqlState] else { return nil }
        guard ["21", "22", "23", "2F", "38", "39", "42", "P0"].contains(String(state.prefix(2))) else { return nil }
        return "\(info[.message] ?? "error") (SQLSTATE \(state))"
    }
}

extension LedgerError.Code {
    /// A projection stopped on a log at an event its fold could not take (``ProjectionStall``).
    public static let projectionStalled = LedgerError.Code("projection-stalled", .serverFault)
}
