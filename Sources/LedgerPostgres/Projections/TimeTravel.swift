import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The projections as they were at a moment (``AsOf``), for one subject or all: the same fold
/// statements as catch-up and rebuild, run into temporary tables of one transaction that is rolled
/// back afterwards. Nothing is written; the auditor role can do it.
public struct TimeTravel: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public var logger: Logger
    /// Events per fold step.
    public var chunkSize: Int64 = 100_000
    /// Told after each folded range: positions folded so far (summed over the projections), and
    /// the total to fold; for a progress bar on a long fold.
    public var progress: @Sendable (_ done: Int64, _ total: Int64) -> Void = { _, _ in }

    /// Creates a time traveller.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.projections")) {
        self.pool = pool
        self.logger = logger
    }

    /// Runs `body` with `projections` folded as of `asOf` (only `subject`'s events when given) in
    /// temporary tables on `body`'s connection, whose search_path finds them. `body` also gets the
    /// last position the fold could include. The projections' table names must not clash.
    public func withState<Result: Sendable>(
        log: String, projections: [ProjectionDefinition], asOf: AsOf, subject: String? = nil,
        _ body: @Sendable (PostgresConnection, Int64) async throws -> Result
    ) async throws -> Result {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log).position
        let last = asOf.lastPosition(head: head)
        let filter = asOf.filter(subject: subject)
        return try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await ProjectionSchema.createTemporary(projections, on: connection, logger: logger)
                try await fold(projections.map { (projection: $0, after: Int64(0)) }, log: log, through: last, filter: filter, on: connection)
                return try await body(connection, last)
            }
        }
    }

    /// Folds, for each projection, the positions (`after`, `through`] of `log` that pass `filter`
    /// into the tables the connection's search_path finds (temporary tables, in a transaction the
    /// caller rolls back), in steps of ``chunkSize``, telling ``progress``.
    func fold(_ ranges: [(projection: ProjectionDefinition, after: Int64)], log: String, through last: Int64,
              filter: FoldInput.Filter = .none, on connection: PostgresConnection) async throws {
        let total = ranges.reduce(Int64(0)) { $0 + max(0, last - $1.after) }
        var done: Int64 = 0
        for (projection, after) in ranges {
            var position = after
            while position < last {
                let through = min(last, position + chunkSize)
                try await FoldInput.foldRange(projection, FoldRange(log: log, after: position, through: through, filter: filter),
                                              on: connection, logger: logger)
                done += through - position
                position = through
                progress(done, total)
            }
        }
    }

    /// The snapshots (``SubjectSnapshot``) of `log`'s subjects as of `asOf`, or only `subject`'s.
    /// - Throws: `log-not-found`; `subject-not-found` when `subject` is given and the log has no
    ///   event about it at all.
    public func snapshots(log: String, asOf: AsOf, subject: String? = nil) async throws -> (position: Int64, snapshots: [String]) {
        if let subject {
            _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
            try await SubjectChecks(pool: pool, logger: logger).requireSubject(log: log, subject: subject)
        }
        let projections = [ProjectionDefinition.named(.subjectState), ProjectionDefinition.named(.consentRegister)]
        let logger = self.logger
        return try await withState(log: log, projections: projections, asOf: asOf, subject: subject) { connection, last in
            (last, try await SubjectSnapshot.read(log: log, subject: subject, on: connection, logger: logger))
        }
    }

    /// Every row of every table of `projection` as of `asOf`, each as JSON text, table by table in
    /// a fixed order: for comparing time travel with catch-up and rebuild.
    public func rows(log: String, projection: ProjectionDefinition, asOf: AsOf) async throws -> [String] {
        let logger = self.logger
        return try await withState(log: log, projections: [projection], asOf: asOf) { connection, _ in
            try await ProjectionRows.dump(projection, schema: "pg_temp", on: connection, logger: logger)
        }
    }
}

/// Reads a projection's tables as JSON rows in a fixed order, wherever they are.
public enum ProjectionRows {
    /// The rows of `projection`'s tables in `schema` (`pg_temp` for time travel): for each table in
    /// name order, `table<TAB>row JSON`, rows sorted.
    static func dump(_ projection: ProjectionDefinition, schema: String, on connection: PostgresConnection,
                     logger: Logger) async throws -> [String] {
        let tables = try await tableNames(projection, schema: schema, on: connection, logger: logger)
        var rows: [String] = []
        for table in tables {
            let qualified = schema == "pg_temp" ? "pg_temp.\(ProjectionSchema.quoted(table))"
                                                : "\(ProjectionSchema.quoted(schema)).\(ProjectionSchema.quoted(table))"
            let query = PostgresQuery(unsafeSQL: "SELECT '\(table)' || E'\\t' || to_jsonb(t)::text AS r FROM \(qualified) t ORDER BY r")
            for try await row in try await connection.watchedQuery(query, logger: logger).decode(String.self) { rows.append(row) }
        }
        return rows
    }

    /// The rows of the live tables of `projection` (bookkeeping tables excluded).
    public static func live(_ projection: ProjectionDefinition, pool: LedgerPool,
                            logger: Logger = Logger(label: "consent-ledger.projections")) async throws -> [String] {
        try await pool.withConnection { connection in
            try await dump(projection, schema: projection.name, on: connection, logger: logger)
        }
    }

    /// The projection's own tables (not views, not `checkpoints` or `definition`), by name.
    static func tableNames(_ projection: ProjectionDefinition, schema: String, on connection: PostgresConnection,
                           logger: Logger) async throws -> [String] {
        let namespace = schema == "pg_temp" ? "pg_my_temp_schema()" : "to_regnamespace('\(ProjectionSchema.quoted(schema))')::oid"
        var names: [String] = []
        for try await name in try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
            SELECT relname::text FROM pg_class
             WHERE relnamespace = \(namespace) AND relkind = 'r'
               AND relname NOT IN ('checkpoints', 'definition')
             ORDER BY relname
            """), logger: logger).decode(String.self) { names.append(name) }
        return names
    }
}
