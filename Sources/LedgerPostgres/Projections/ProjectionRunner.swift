import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Keeps the projections' live tables caught up with the logs.
///
/// Each step folds the next range (checkpoint, checkpoint + chunk] of one log into one projection
/// and advances that projection's checkpoint in the same transaction, under the projection's fold
/// lock: a step is applied once or not at all, a process killed mid-step leaves nothing behind,
/// and several runners (in one process or many) never fold the same range twice. Positions are
/// gapless and commit in order (docs/architecture.md), so reading up to the head the step
/// sees can never skip an event that commits later.
///
/// An event a fold cannot take stops only its log, for that projection, just before it: the step
/// folds what precedes it and records a ``ProjectionStall``; every other log goes on, and each run
/// tries the event again, alone (decision 0033).
///
/// ```swift
/// let runner = ProjectionRunner(pool: pool)
/// try await runner.runOnce { print($0) }   // rebuild what is missing or stale, then catch up
/// ```
public struct ProjectionRunner: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public var logger: Logger
    /// Events per catch-up step (one transaction).
    public var chunkSize: Int64
    /// Called inside each step's transaction after the fold and before the checkpoint moves; a
    /// throw rolls the step back. For tests that kill a runner mid-step.
    public var beforeCheckpoint: (@Sendable (_ projection: String, _ through: Int64) throws -> Void)?
    /// The last range read, shared by the projections stepping over it (``RecentRange``).
    let recent = RecentRange()

    /// Creates a runner.
    public init(pool: LedgerPool, chunkSize: Int64 = 10_000,
                logger: Logger = Logger(label: "consent-ledger.projections")) {
        self.pool = pool
        self.chunkSize = chunkSize
        self.logger = logger
    }

    /// What one step did.
    public enum Step: Sendable, Equatable {
        /// Folded the events at positions (`after`, `through`], `events` of them of the types read.
        case folded(after: Int64, through: Int64, events: Int)
        /// The projection was already at the log's head.
        case upToDate(position: Int64)
        /// Another process holds the projection's fold lock; it is advancing it.
        case busy
        /// The fold failed on the event at `stall.position`: what preceded it in the range is
        /// folded, the checkpoint stays just before it, and the stall is recorded.
        case stalled(ProjectionStall)
    }

    /// What catching one projection up on one log did.
    public struct CatchUp: Sendable, Equatable {
        /// Events folded.
        public var folded: Int
        /// The stall it stopped at, if any.
        public var stall: ProjectionStall?
    }

    /// Folds the next range of `log` into `projection`'s live tables, if no other process holds
    /// the projection's fold lock.
    public func step(_ projection: ProjectionDefinition, log: String, chunkSize: Int64? = nil) async throws -> Step {
        try await pool.withConnection { connection in
            try await connection.inTransaction(logger: logger) { connection in
                guard try await ProjectionLocks.tryFoldLock(projection.name, on: connection, logger: logger) else {
                    return .busy
                }
                return try await foldNext(projection, schema: projection.name, log: log,
                                          chunkSize: chunkSize ?? self.chunkSize, on: connection)
            }
        }
    }

    /// Steps `projection` on `log` until it reaches the head it sees, another process has it, or
    /// the log stalls; says how many events were folded and where it stalled. `maxSteps` stops
    /// early (tests).
    @discardableResult
    public func catchUp(_ projection: ProjectionDefinition, log: String, maxSteps: Int? = nil) async throws -> CatchUp {
        var folded = 0
        var steps = 0
        while maxSteps.map({ steps < $0 }) ?? true {
            switch try await step(projection, log: log) {
            case .folded(_, _, let events): folded += events
            case .upToDate, .busy: return CatchUp(folded: folded)
            case .stalled(let stall): return CatchUp(folded: folded, stall: stall)
            }
            steps += 1
        }
        return CatchUp(folded: folded)
    }

    /// Brings every projection to the head of every log: rebuilds those missing or built by
    /// another definition (``ProjectionRebuilder``), then catches each up. `note` receives one
    /// line per projection that changed.
    /// `progress(done, total)` follows the build of missing or stale projections, in positions.
    /// - Returns: the logs left stalled, each at the event its projection's fold failed on (the
    ///   other logs are at their heads).
    @discardableResult
    public func runOnce(_ projections: [ProjectionDefinition] = ProjectionDefinition.all,
                        note: @Sendable (String) -> Void = { _ in },
                        progress: @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws -> [ProjectionStall] {
        try await Migrator(pool: pool, logger: logger).requireSchema()
        var toBuild: [ProjectionDefinition] = []
        for projection in projections {
            let built = try await pool.withConnection { connection in
                try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger)
            }
            if built != projection.definitionHash {
                note(built == nil ? "\(projection.name): not built yet; building it"
                                  : "\(projection.name): its definition changed; rebuilding it")
                toBuild.append(projection)
            }
        }
        let progressOf = progress
        if !toBuild.isEmpty {
            // One pass over the log for all of them. Another runner may be building them already:
            // then this one leaves them to it.
            do {
                _ = try await ProjectionRebuilder(pool: pool, logger: logger).rebuild(toBuild) { progress in
                    if progress.isFinal { note(progress.line) } else { progressOf(progress.done, progress.total) }
                }
            } catch let error as LedgerError where error.code == .projectionBusy {
                note("\(error.message); leaving the build to it")
            }
        }
        var stalls: [ProjectionStall] = []
        for projection in projections {
            let built = try await pool.withConnection { connection in
                try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger)
            }
            guard built == projection.definitionHash else {
                note("\(projection.name): not built yet (another runner is building it); skipped this pass")
                continue
            }
            for log in try await logsBehind(projection) {
                do {
                    let result = try await catchUp(projection, log: log)
                    if result.folded > 0 { note("\(projection.name): folded \(result.folded) events of log \(log)") }
                    if let stall = result.stall { stalls.append(stall) }
                } catch let error as LedgerError where error.code == .projectionNotReady {
                    note("\(projection.name): not built yet (another runner is building it); skipped this pass")
                    break
                }
            }
        }
        return stalls
    }

    /// The logs whose head is beyond `projection`'s checkpoint (a stalled log among them: it stalled
    /// below its head), in one query: an idle pass costs one statement per projection, not one
    /// transaction per projection and log (issue 36: idle CPU grew with the number of logs, ~58% of
    /// a core at 404 idle logs). Every log when the projection's schema is missing, so that
    /// ``catchUp(_:log:maxSteps:)`` says why.
    func logsBehind(_ projection: ProjectionDefinition) async throws -> [String] {
        try await pool.withConnection { connection in
            try await connection.inTransaction(logger: logger) { connection in
                try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
                let query: PostgresQuery
                if try await ProjectionSchema.exists(projection.name, on: connection, logger: logger) {
                    query = PostgresQuery(unsafeSQL: """
                        SELECT l.log_id FROM ledger.logs l LEFT JOIN \(ProjectionSchema.quoted(projection.name)).checkpoints c USING (log_id)
                         WHERE l.head_position > coalesce(c.position, 0) ORDER BY l.log_id
                        """)
                } else {
                    query = "SELECT log_id FROM ledger.logs ORDER BY log_id"
                }
                var logs: [String] = []
                for try await log in try await connection.watchedQuery(query, logger: logger).decode(String.self) { logs.append(log) }
                return logs
            }
        }
    }

    /// The body of a step, inside a transaction that holds the fold lock (or, for a build schema,
    /// the rebuild lock).
    func foldNext(_ projection: ProjectionDefinition, schema: String, log: String, chunkSize: Int64,
                  on connection: PostgresConnection) async throws -> Step {
        try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
        guard try await ProjectionSchema.exists(schema, on: connection, logger: logger) else {
            throw LedgerError(.projectionNotReady, "the projection \(projection.name) is not built",
                              hint: "Run `consent-ledger project run` (or `project rebuild \(projection.name)`).")
        }
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = \(ProjectionSchema.quoted(schema)), pg_temp"),
                                   logger: logger)
        try await connection.watchedQuery("INSERT INTO checkpoints (log_id) VALUES (\(log)) ON CONFLICT DO NOTHING", logger: logger)
        var checkpoint: Int64 = 0
        var stalledAt: Int64?
        for try await (position, stall) in try await connection.watchedQuery(
            "SELECT position, stall_position FROM checkpoints WHERE log_id = \(log)", logger: logger)
            .decode((Int64, Int64?).self) { (checkpoint, stalledAt) = (position, stall) }
        var head: Int64 = 0
        for try await value in try await connection.watchedQuery(
            "SELECT head_position FROM ledger.logs WHERE log_id = \(log)", logger: logger).decode(Int64.self) { head = value }
        guard head > checkpoint else { return .upToDate(position: checkpoint) }
        // A stalled log tries its stalled event again, alone: the retry costs one event, and a
        // failure that is still there is not searched for again.
        let through = stalledAt ?? min(head, checkpoint + max(1, chunkSize))
        let events: Int
        switch try await attempt(projection, log: log, after: checkpoint, through: through, keep: true, on: connection) {
        case .success(let count):
            events = count
        case .failure(let failure):
            // Find the first position whose event makes the fold fail: the longest range from
            // the checkpoint that folds is (checkpoint, good]; the event at good + 1 is the one.
            var good = checkpoint, bad = through, error = failure.message
            while bad - good > 1 {
                let middle = good + (bad - good) / 2
                switch try await attempt(projection, log: log, after: checkpoint, through: middle, keep: false, on: connection) {
                case .success: good = middle
                case .failure(let failure): (bad, error) = (middle, failure.message)
                }
            }
            var folded = 0
            if good > checkpoint {
                switch try await attempt(projection, log: log, after: checkpoint, through: good, keep: true, on: connection) {
                case .success(let count): folded = count
                case .failure(let failure): throw failure.error  // folded a moment ago: not the event's fault
                }
            }
            try beforeCheckpoint?(projection.name, good)
            try await connection.watchedQuery("""
                UPDATE checkpoints SET position = \(good), events_folded = events_folded + \(folded),
                       updated_at = clock_timestamp()
                 WHERE log_id = \(log)
                """, logger: logger)
            if good > checkpoint { try await announceFold(projection, schema: schema, log: log, on: connection) }
            return .stalled(try await ProjectionStall.record(projection.name, log: log, position: bad, error: error,
                                                             on: connection, logger: logger))
        }
        try beforeCheckpoint?(projection.name, through)
        try await connection.watchedQuery("""
            UPDATE checkpoints SET position = \(through), events_folded = events_folded + \(events),
                   updated_at = clock_timestamp(), \(unescaped: ProjectionStall.clearSQL)
             WHERE log_id = \(log)
            """, logger: logger)
        try await announceFold(projection, schema: schema, log: log, on: connection)
        return .folded(after: checkpoint, through: through, events: events)
    }

    /// Tells the readers that follow a projection (``FindingsFeed``) that `log` is folded further:
    /// `NOTIFY consent_ledger_folded, '<projection>/<log>'`, delivered when the fold commits, never
    /// for one rolled back. A rebuild's schema is not announced: its swap is.
    func announceFold(_ projection: ProjectionDefinition, schema: String, log: String, on connection: PostgresConnection) async throws {
        guard schema == projection.name else { return }
        try await connection.watchedQuery("SELECT pg_notify(\(FindingsFeed.foldedChannel), \(projection.name + "/" + log))", logger: logger)
    }

    /// A fold statement (or the staging) failed on what it was given.
    struct FoldFailure: Error {
        /// PostgreSQL's message and SQLSTATE.
        var message: String
        /// The error itself.
        var error: any Error
    }

    /// Stages (`after`, `through`] of `log` and folds it into the tables of the `search_path`, in
    /// a savepoint: kept when `keep` and it succeeded, rolled back otherwise. Returns the events
    /// staged, or the failure when the staging or a fold statement failed on the events or the
    /// fold's SQL (``ProjectionStall/foldFailure(_:)``); any other error is thrown.
    func attempt(_ projection: ProjectionDefinition, log: String, after: Int64, through: Int64, keep: Bool,
                 on connection: PostgresConnection) async throws -> Result<Int, FoldFailure> {
        try await connection.watchedQuery("SAVEPOINT fold_attempt", logger: logger)
        do {
            // A range every projection steps over is read once, every type (the stall search's shorter
            // ranges are not kept). A record of the range no fold can read leaves each projection to
            // read its own types: only those that read the record's type stop at it.
            var read: [LedgerEvent]?
            if keep {
                do {
                    read = try await recent.events(log: log, after: after, through: through) {
                        try await LogReader.events(log: log, after: after, through: through, types: EventCatalogue.eventTypes,
                                                   on: connection, logger: logger)
                    }
                } catch is LogReader.UnreadableEvent {
                    read = nil
                }
            }
            let range = keep ? recent.range(log: log, after: after, through: through) : FoldRange(log: log, after: after, through: through)
            let events = try await FoldInput.foldRange(projection, range, read: read, on: connection, logger: logger)
            if !keep { try await connection.watchedQuery("ROLLBACK TO SAVEPOINT fold_attempt", logger: logger) }
            try await connection.watchedQuery("RELEASE SAVEPOINT fold_attempt", logger: logger)
            return .success(events)
        } catch {
            guard let message = ProjectionStall.foldFailure(error) else { throw error }
            try await connection.watchedQuery("ROLLBACK TO SAVEPOINT fold_attempt", logger: logger)
            try await connection.watchedQuery("RELEASE SAVEPOINT fold_attempt", logger: logger)
            return .failure(FoldFailure(message: message, error: error))
        }
    }
}
