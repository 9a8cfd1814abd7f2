import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Proves that a projection's live tables are what the log gives: for one log, the projection is
/// folded again from the first event to the position its live tables have reached, into temporary
/// tables of a transaction that is rolled back (the folds of time travel, ``TimeTravel``), and each
/// of its tables is compared, row for row, with the live one (issue 36, finding 3: a projection
/// row deleted or rewritten with plain DML changed the sealed reports while `verify` passed).
///
/// The live checkpoint and the live rows are read in the same snapshot as the fold's events, so a
/// fold that commits meanwhile is not mistaken for a difference. Nothing is written; the auditor
/// role can run it.
public struct ProjectionProof: Sendable {
    /// What one projection's comparison found.
    public struct Outcome: Sendable, Equatable {
        /// The projection.
        public var projection: String
        /// The position its live tables have folded the log to (the re-fold's end).
        public var position: Int64
        /// Tables compared.
        public var tables: Int
        /// Live rows of the log compared.
        public var rows: Int64
        /// The first difference, or why the projection could not be compared; nil when equal.
        public var problem: String?
        /// True when every table equals the re-fold.
        public var passed: Bool { problem == nil }
    }

    /// The pool (the auditor's is enough).
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A prover over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.projections")) {
        self.pool = pool
        self.logger = logger
    }

    /// Compares each of `projections` on `log` with a re-fold of the log; `progress` hears each
    /// projection as it starts.
    public func check(log: String, projections: [ProjectionDefinition] = ProjectionDefinition.all,
                      progress: @Sendable (String) -> Void = { _ in }) async throws -> [Outcome] {
        _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        var outcomes: [Outcome] = []
        for projection in projections {
            progress("re-folding \(projection.name) to compare it with its live tables")
            outcomes.append(try await check(log: log, projection: projection))
        }
        return outcomes
    }

    private func check(log: String, projection: ProjectionDefinition) async throws -> Outcome {
        let logger = self.logger
        let pool = self.pool
        return try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await connection.watchedQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
                var outcome = Outcome(projection: projection.name, position: 0, tables: 0, rows: 0)
                let built = try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger)
                guard built == projection.definitionHash else {
                    outcome.problem = built == nil
                        ? "it is not built (`consent-ledger project run` builds it)"
                        : "its live tables were built by another definition (`consent-ledger project rebuild \(projection.name)`)"
                    return outcome
                }
                outcome.position = try await ReportSource.checkpoint(projection, log: log, on: connection, logger: logger)
                try await ProjectionSchema.createTemporary([projection], on: connection, logger: logger)
                try await TimeTravel(pool: pool, logger: logger).fold([(projection, 0)], log: log, through: outcome.position, on: connection)
                let tables = try await ProjectionRows.tableNames(projection, schema: projection.name, on: connection, logger: logger)
                outcome.tables = tables.count
                for table in tables {
                    let live = "\(ProjectionSchema.quoted(projection.name)).\(ProjectionSchema.quoted(table))"
                    let folded = "pg_temp.\(ProjectionSchema.quoted(table))"
                    let (count, difference) = try await Self.compare(live: live, folded: folded, log: log, on: connection, logger: logger)
                    outcome.rows += count
                    if let difference {
                        outcome.problem = "table \(table) differs from the log folded to position \(outcome.position): \(difference)"
                        return outcome
                    }
                }
                return outcome
            }
        }
    }

    /// The live table's row count for `log` and its first difference from the folded one: a row
    /// only the live table holds (added or changed behind the folds' back), else one only the fold
    /// gives (deleted or changed).
    private static func compare(live: String, folded: String, log: String, on connection: PostgresConnection,
                                logger: Logger) async throws -> (Int64, String?) {
        var binds = PostgresBindings(capacity: 1)
        binds.append(log)
        let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
            WITH l AS (SELECT to_jsonb(t) AS r FROM \(live) t WHERE t.log_id = $1),
                 f AS (SELECT to_jsonb(t) AS r FROM \(folded) t WHERE t.log_id = $1)
            SELECT (SELECT count(*) FROM l)::bigint,
                   (SELECT r::text FROM (SELECT r FROM l EXCEPT ALL SELECT r FROM f) x ORDER BY r::text LIMIT 1),
                   (SELECT r::text FROM (SELECT r FROM f EXCEPT ALL SELECT r FROM l) x ORDER BY r::text LIMIT 1)
            """, binds: binds), logger: logger)
        for try await (count, extra, missing) in rows.decode((Int64, String?, String?).self) {
            if let extra { return (count, "the live table holds a row the log does not give: \(extra)") }
            if let missing { return (count, "the live table lacks a row the log gives: \(missing)") }
            return (count, nil)
        }
        return (0, nil)
    }
}
