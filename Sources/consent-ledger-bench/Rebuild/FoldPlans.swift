import Logging
import PostgresNIO

/// The plans behind the breakdown's figures. A fold statement's plan can change from one chunk to
/// the next (the build tables grow from empty and are never analyzed), so with `--plans` every
/// statement of the breakdown's shared pass runs under `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF)`
/// (it executes as it would without; only row counting is added) and the plan of its slowest
/// chunk is kept.
enum FoldPlans {
    /// One statement's plan on one chunk.
    struct Sample: Sendable {
        /// The chunk: positions (`after`, `through`].
        var after: Int64
        var through: Int64
        /// The statement's wall time on that chunk.
        var seconds: Double
        /// The EXPLAIN output.
        var plan: String
    }

    /// Runs `query`, under EXPLAIN when `explain`; returns its wall time and, under EXPLAIN, its plan.
    static func run(_ query: PostgresQuery, explain: Bool, on connection: PostgresConnection,
                    logger: Logger) async throws -> (seconds: Double, plan: String?) {
        guard explain else { return (try await BenchSQL.execute(query, on: connection, logger: logger), nil) }
        let explained = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) " + query.sql, binds: query.binds)
        let watch = Stopwatch()
        let plan = try await BenchSQL.texts(explained, on: connection, logger: logger).joined(separator: "\n")
        return (watch.elapsedSeconds, plan)
    }

    /// Keeps `candidate` in `slowest` when it is slower than what is there.
    static func keepSlowest(_ slowest: inout Sample?, _ candidate: Sample) {
        if candidate.seconds > slowest?.seconds ?? -1 { slowest = candidate }
    }

    /// The plans file: the fill's slowest chunk, then every statement's, by projection.
    static func render(_ result: FoldBreakdown.Result, log: String) -> String {
        var out = "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) of each statement's slowest chunk in the breakdown's shared pass "
            + "(log \(log): every range staged once with the types of all six projections, then each projection's fold.sql)\n"
        func section(_ title: String, _ sample: Sample?) {
            guard let sample else { return }
            out += "--- \(title): slowest on positions (\(sample.after), \(sample.through)], "
                + String(format: "%.1f", sample.seconds * 1000) + " ms\n" + sample.plan + "\n"
        }
        section("fill fold_input", result.fillPlan)
        for folds in result.folds {
            out += "=== \(folds.projection)\n"
            for statement in folds.statements { section("\(folds.projection) \(statement.label)", statement.slowest) }
        }
        return out
    }
}
