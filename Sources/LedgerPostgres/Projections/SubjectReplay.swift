import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// A subject's history replayed event by event, with the state after each: for settling
/// disputes ("my parent never approved that").
///
/// The replay folds the subject's events one at a time through the very statements that build
/// `subject_state` and `consent_register` (into temporary tables, rolled back afterwards), together
/// with the events about no subject before each (a significant change declared for an app), so the
/// state after the last event is what those projections hold for the subject.
public struct SubjectReplay: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public var logger: Logger

    /// Creates a replayer.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.replay")) {
        self.pool = pool
        self.logger = logger
    }

    /// One event of the subject's history and the state after it.
    public struct Step: Sendable {
        /// The event as recorded.
        public var event: ReplayedEvent
        /// The subject's snapshot after the event (``SubjectSnapshot``), as JSON; `.null` while the
        /// ledger knows nothing that the projections keep about the subject.
        public var state: JSONValue
        /// Whether this event changed the state.
        public var changedState: Bool
    }

    /// A subject's replayed history.
    public struct History: Sendable {
        /// The log.
        public var log: String
        /// The subject.
        public var subject: String
        /// The moment replayed up to.
        public var asOf: AsOf
        /// The last position the replay could include.
        public var throughPosition: Int64
        /// The steps, in position order.
        public var steps: [Step]
    }

    /// `subject`'s events in `log` up to `asOf`, in order, without the state after each (one read,
    /// where ``replay(log:subject:asOf:)`` folds after every event): the console's timeline.
    /// - Throws: `log-not-found`; `subject-not-found` when the subject has no events in the log.
    public func events(log: String, subject: String, asOf: AsOf = .head) async throws -> (throughPosition: Int64, events: [ReplayedEvent]) {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log).position
        try await SubjectChecks(pool: pool, logger: logger).requireSubject(log: log, subject: subject)
        let last = asOf.lastPosition(head: head)
        let filter = asOf.filter(subject: subject)
        let logger = self.logger
        let events = try await pool.withConnection { connection in
            try await ReplayedEvent.read(log: log, subject: subject, through: last, filter: filter, on: connection, logger: logger)
        }
        return (last, events)
    }

    /// Replays `subject`'s events in `log` up to `asOf`.
    /// - Throws: `log-not-found`; `subject-not-found` when the subject has no events there.
    public func replay(log: String, subject: String, asOf: AsOf = .head) async throws -> History {
        let (last, events) = try await self.events(log: log, subject: subject, asOf: asOf)
        guard !events.isEmpty else {
            let emptyMoment = try await SubjectChecks(pool: pool, logger: logger).emptyMoment(log: log, subject: subject, asOf: asOf)
            throw LedgerError(.subjectNotFound, "subject \(subject) has no events in log \(log) as of \(asOf)",
                              hint: emptyMoment.map { "Then " + $0 + "." } ?? "Choose a later --as-of moment.")
        }
        let filter = asOf.filter(subject: subject)
        let projections = [ProjectionDefinition.named(.subjectState), ProjectionDefinition.named(.consentRegister)]
        let logger = self.logger
        let steps: [Step] = try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await ProjectionSchema.createTemporary(projections, on: connection, logger: logger)
                var steps: [Step] = []
                var previous = "null"
                var folded: Int64 = 0
                for event in events {
                    // Up to and including this event: the subject's event, and the events about no
                    // subject before it (a change declared for the app), which the projections use too.
                    for projection in projections {
                        try await FoldInput.foldRange(projection, FoldRange(log: log, after: folded, through: event.position,
                                                                            filter: filter), on: connection, logger: logger)
                    }
                    folded = event.position
                    let text = try await SubjectSnapshot.read(log: log, subject: subject, on: connection, logger: logger).first ?? "null"
                    let state = try JSONParser.parse(text)
                    steps.append(Step(event: event, state: state, changedState: text != previous))
                    previous = text
                }
                return steps
            }
        }
        return History(log: log, subject: subject, asOf: asOf, throughPosition: last, steps: steps)
    }
}

extension ReplayedEvent {
    static let columns = """
        e.position, e.event_id::text, e.type, e.stream,
        to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        e.actor_kind || coalesce(' ' || e.actor_id, ''),
        j.event #>> '{app,bundleId}', j.event #>> '{app,environment}',
        (CASE WHEN e.type = 'AgeRangeShared' AND e.schema_version = 1
              THEN ledger.upcast_age_range_shared_v1(j.event -> 'payload') ELSE j.event -> 'payload' END)::text,
        (j.event -> 'derived')::text
        """

    /// The events of `subject` in `log` up to `through` that pass `filter`, in order.
    static func read(log: String, subject: String, through: Int64, filter: FoldInput.Filter,
                     on connection: PostgresConnection, logger: Logger) async throws -> [ReplayedEvent] {
        var binds = PostgresBindings(capacity: 5)
        binds.append(log)
        binds.append(subject)
        binds.append(through)
        binds.append(filter.recordedBy)
        binds.append(filter.occurredBy)
        return try await select(where: """
                e.log_id = $1 AND e.subject = $2 AND e.position <= $3
                AND ($4::timestamptz IS NULL OR e.recorded_at <= $4)
                AND ($5::timestamptz IS NULL OR e.occurred_at <= $5)
                """, binds: binds, on: connection, logger: logger)
    }

    /// The events of `log` with the given ids, in position order (ids not in the log are left out).
    static func read(log: String, eventIds: [String], on connection: PostgresConnection, logger: Logger) async throws -> [ReplayedEvent] {
        let ids = eventIds.compactMap { UUID(uuidString: $0) }
        guard !ids.isEmpty else { return [] }
        var binds = PostgresBindings(capacity: 2)
        binds.append(log)
        binds.append(ids)
        return try await select(where: "e.log_id = $1 AND e.event_id = ANY ($2::uuid[])", binds: binds, on: connection, logger: logger)
    }

    /// The events of `log` at `positions` that name `subject` or no subject at all, in position
    /// order: what a finding about `subject` cites beside the subject's own events (a significant
    /// change's declaration names no subject). Another subject's event is never read here.
    static func read(log: String, positions: [Int64], subjectOrNone subject: String, on connection: PostgresConnection,
                     logger: Logger) async throws -> [ReplayedEvent] {
        guard !positions.isEmpty else { return [] }
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(positions)
        binds.append(subject)
        return try await select(where: "e.log_id = $1 AND e.position = ANY ($2::bigint[]) AND (e.subject IS NULL OR e.subject = $3)",
                                binds: binds, on: connection, logger: logger)
    }

    /// The events of `ledger.events e` that meet `condition` (SQL over `e`, with `binds`), in
    /// position order.
    private static func select(where condition: String, binds: PostgresBindings, on connection: PostgresConnection,
                               logger: Logger) async throws -> [ReplayedEvent] {
        let query = PostgresQuery(unsafeSQL: """
            SELECT \(columns)
              FROM ledger.events e
             CROSS JOIN LATERAL (SELECT convert_from(e.record, 'UTF8')::jsonb -> 'event' AS event OFFSET 0) j
             WHERE \(condition)
             ORDER BY e.position
            """, binds: binds)
        var events: [ReplayedEvent] = []
        for try await (position, id, type, stream, occurred, recorded, actor, app, environment, payload, derived) in try await connection
            .watchedQuery(query, logger: logger)
            .decode((Int64, String, String, String, String, String, String, String?, String?, String, String?).self) {
            events.append(ReplayedEvent(position: position, eventId: id, type: type, stream: stream, occurredAt: occurred,
                                        recordedAt: recorded, actor: actor, app: app, environment: environment,
                                        payload: try JSONParser.parse(payload),
                                        derived: try derived.map { try JSONParser.parse($0) }))
        }
        return events
    }
}
