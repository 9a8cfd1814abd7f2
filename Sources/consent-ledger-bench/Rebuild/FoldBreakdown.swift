import LedgerPostgres
import Logging
import PostgresNIO

/// Where a rebuild's time goes. The bench runs the rebuild's steps itself, over the same chunks
/// and with the same SQL, and times every part:
///
/// - per projection, the staging a rebuild of it alone does (fill of `fold_input` with its event
///   types, count and ANALYZE), rolled back;
/// - one pass over all six on one connection, the rebuild's work laid end to end (the rebuild stages
///   on a connection of its own, beside the groups' folds): each chunk staged once with every type, then each projection's `fold.sql` statement by statement into a scratch schema of
///   its own (``FoldSteps/scratchSchema(_:)``), committed; with `explain`, each under EXPLAIN
///   (``FoldPlans``).
///
/// Left out: the rebuilder's bookkeeping (checkpoint rows, head look-ups, the swap), a few small
/// statements per chunk; the rebuild's own time, beside it in the report, includes them.
enum FoldBreakdown {
    /// One fold statement and its time summed over the chunks.
    struct StatementTime: Sendable {
        /// ``FoldSteps/label(_:_:)``.
        var label: String
        var seconds: Double
        /// Its slowest chunk's plan, with `explain`.
        var slowest: FoldPlans.Sample?
    }

    /// One projection's staging alone, summed over the chunks.
    struct Staging: Sendable {
        var projection: String
        /// Rows put in fold_input (events of its types).
        var events = 0
        /// The fill, and the count with ANALYZE.
        var fill = 0.0
        var analyze = 0.0
    }

    /// One projection's fold statements in the shared pass.
    struct Folds: Sendable {
        var projection: String
        var statements: [StatementTime]
        /// All its statements.
        var seconds: Double { statements.reduce(0) { $0 + $1.seconds } }
    }

    /// The whole breakdown.
    struct Result: Sendable {
        var stagings: [Staging] = []
        /// The shared pass: chunks, rows staged (every type), and its parts.
        var chunks = 0
        var stagedEvents = 0
        var fill = 0.0
        var analyze = 0.0
        /// BEGIN, COMMIT, creating and emptying fold_input, the per-type count, search_path.
        var other = 0.0
        var folds: [Folds] = []
        /// Creating the reader indexes (`indexes.sql`) once the scratch tables are full, as a rebuild does.
        var readerIndexes = 0.0
        /// With `explain`: the fill's slowest chunk's plan (each statement's is in ``folds``).
        var fillPlan: FoldPlans.Sample?

        /// The shared pass, all parts.
        var total: Double { fill + analyze + other + readerIndexes + folds.reduce(0) { $0 + $1.seconds } }
    }

    /// Profiles positions (0, `head`] of `log` in steps of `chunkSize`.
    static func measure(client: LedgerPool, log: String, head: Int64, chunkSize: Int64, sql: FoldInputSQL,
                        explain: Bool, logger: Logger) async throws -> Result {
        let projections = ProjectionDefinition.all
        return try await client.withConnection { connection in
            var result = Result()
            for projection in projections {
                let staging = try await stage(projection, connection: connection, log: log, head: head, chunkSize: chunkSize,
                                              sql: sql, logger: logger)
                Progress.note("breakdown: staging \(projection.name) alone: fill \(String(format: "%.2f", staging.fill)) s, "
                    + "count + ANALYZE \(String(format: "%.2f", staging.analyze)) s, \(staging.events) events")
                result.stagings.append(staging)
            }
            try await FoldSteps.createScratchSchemas(projections, on: connection, logger: logger)
            result.folds = projections.map { projection in
                Folds(projection: projection.name, statements: projection.foldStatements.enumerated().map {
                    StatementTime(label: FoldSteps.label($1, $0 + 1), seconds: 0)
                })
            }
            let types = Array(Set(projections.flatMap(\.reads))).sorted()
            var after: Int64 = 0
            while after < head {
                let through = min(head, after + chunkSize)
                try await sharedStep(projections, types: types, connection: connection, log: log, after: after, through: through,
                                     sql: sql, explain: explain, into: &result, logger: logger)
                after = through
            }
            result.readerIndexes = try await FoldSteps.createReaderIndexes(projections, on: connection, logger: logger)
            try await FoldSteps.dropScratchSchemas(projections, on: connection, logger: logger)
            Progress.note("breakdown: one pass: fill \(String(format: "%.2f", result.fill)) s, count + ANALYZE "
                + "\(String(format: "%.2f", result.analyze)) s, folds "
                + result.folds.map { "\($0.projection) \(String(format: "%.2f", $0.seconds)) s" }.joined(separator: ", ")
                + ", reader indexes \(String(format: "%.2f", result.readerIndexes)) s")
            return result
        }
    }

    /// Stages every chunk with `projection`'s types alone, as a rebuild of it alone does; rolled back.
    private static func stage(_ projection: ProjectionDefinition, connection: PostgresConnection, log: String, head: Int64,
                              chunkSize: Int64, sql: FoldInputSQL, logger: Logger) async throws -> Staging {
        var staging = Staging(projection: projection.name)
        var after: Int64 = 0
        while after < head {
            let through = min(head, after + chunkSize)
            try await FoldSteps.transaction(on: connection, rollBack: true, logger: logger) {
                _ = try await FoldSteps.reset(connection, sql: sql, logger: logger)
                staging.fill += try await BenchSQL.execute(
                    FoldSteps.fill(sql, log: log, after: after, through: through, types: projection.reads), on: connection, logger: logger)
                let watch = Stopwatch()
                staging.events += try await FoldSteps.countAndAnalyze(connection, logger: logger)
                staging.analyze += watch.elapsedSeconds
            }
            after = through
        }
        return staging
    }

    /// One chunk of the shared pass, timed part by part and committed, as a rebuild of all six does it.
    private static func sharedStep(_ projections: [ProjectionDefinition], types: [String], connection: PostgresConnection,
                                   log: String, after: Int64, through: Int64, sql: FoldInputSQL, explain: Bool,
                                   into result: inout Result, logger: Logger) async throws {
        var parts = result
        parts.other += try await FoldSteps.transaction(on: connection, logger: logger) {
            parts.other += try await FoldSteps.reset(connection, sql: sql, logger: logger)
            let fill = try await FoldPlans.run(FoldSteps.fill(sql, log: log, after: after, through: through, types: types),
                                               explain: explain, on: connection, logger: logger)
            parts.fill += fill.seconds
            if let plan = fill.plan {
                FoldPlans.keepSlowest(&parts.fillPlan, .init(after: after, through: through, seconds: fill.seconds, plan: plan))
            }
            let watch = Stopwatch()
            let staged = try await FoldSteps.countAndAnalyze(connection, logger: logger)
            parts.analyze += watch.elapsedSeconds
            parts.stagedEvents += staged
            parts.chunks += 1
            guard staged > 0 else { return }
            parts.other += try await BenchSQL.execute("SELECT type, count(*)::bigint FROM pg_temp.fold_input GROUP BY type",
                                                      on: connection, logger: logger)
            for (index, projection) in projections.enumerated() {
                parts.other += try await FoldSteps.useScratchSchema(projection, on: connection, logger: logger)
                for (number, statement) in projection.foldStatements.enumerated() {
                    let run = try await FoldPlans.run(PostgresQuery(unsafeSQL: statement), explain: explain, on: connection, logger: logger)
                    parts.folds[index].statements[number].seconds += run.seconds
                    if let plan = run.plan {
                        FoldPlans.keepSlowest(&parts.folds[index].statements[number].slowest,
                                              .init(after: after, through: through, seconds: run.seconds, plan: plan))
                    }
                }
            }
        }
        result = parts
    }
}
