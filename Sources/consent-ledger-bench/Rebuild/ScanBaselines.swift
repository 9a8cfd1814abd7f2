import LedgerPostgres
import Logging
import PostgresNIO

/// The yardsticks a rebuild is compared with, on the same log in the same run: a plain
/// sequential scan of `ledger.events` (counting the rows, and reading every record), and the scan
/// plus the JSON parse of every record that the fold input needs. One backend, as a rebuild step
/// is (no parallel workers), and the sequential scan forced (no index or bitmap scans).
enum ScanBaselines {
    /// One baseline: its name in the report and its query (`$1` is the log).
    struct Query: Sendable {
        let name: String
        let sql: String
    }

    /// The baselines, in the report's order.
    static let queries = [
        Query(name: "seq scan: count(*)", sql: "SELECT count(*) FROM ledger.events WHERE log_id = $1"),
        Query(name: "seq scan: sum(length(record))", sql: "SELECT sum(length(record)) FROM ledger.events WHERE log_id = $1"),
        Query(name: "seq scan + jsonb parse of record",
              sql: "SELECT count(convert_from(record, 'UTF8')::jsonb -> 'event') FROM ledger.events WHERE log_id = $1"),
    ]
    /// The plain scan that reads every record: the rebuild's "ratio to scan" divides by its rate.
    static let scanIndex = 1
    /// The scan with the parse.
    static let parseIndex = 2

    /// Each query once untimed (to warm the caches), then `rounds` rounds of all of them,
    /// interleaved; one timing per query, with the log's length as its rows per round.
    static func measure(client: LedgerPool, log: String, rows: Int, rounds: Int, logger: Logger) async throws -> [PathTiming] {
        try await client.withConnection { connection in
            var timings = queries.map { PathTiming(name: $0.name, eventsPerRound: rows) }
            for query in queries {
                let plan = try await run("EXPLAIN " + query.sql, log: log, on: connection, logger: logger).plan
                guard plan.contains("Seq Scan on events") else {
                    throw BenchError("\(query.name): expected a sequential scan, the plan is:\n\(plan)")
                }
                _ = try await run(query.sql, log: log, on: connection, logger: logger)
            }
            for round in 1...rounds {
                for (index, query) in queries.enumerated() {
                    let (value, seconds) = try await run(query.sql, log: log, on: connection, logger: logger).timed
                    if index != scanIndex, value != Int64(rows) {
                        throw BenchError("\(query.name) gave \(value), expected \(rows)")
                    }
                    timings[index].add(round: seconds, batches: [])
                    Progress.note("baseline round \(round): \(query.name): \(String(format: "%.3f", seconds)) s")
                }
            }
            return timings
        }
    }

    /// What one run returned: the plan's lines (for EXPLAIN) or the query's value and wall time.
    private struct Outcome {
        var plan = ""
        var timed: (Int64, Double) = (0, 0)
    }

    /// Runs `sql` (with `$1` = `log`) in a transaction with the scan forced and no parallel workers.
    private static func run(_ sql: String, log: String, on connection: PostgresConnection, logger: Logger) async throws -> Outcome {
        try await BenchSQL.execute("BEGIN", on: connection, logger: logger)
        do {
            for setting in ["max_parallel_workers_per_gather = 0", "enable_indexscan = off",
                            "enable_indexonlyscan = off", "enable_bitmapscan = off"] {
                try await BenchSQL.execute("SET LOCAL " + setting, on: connection, logger: logger)
            }
            var binds = PostgresBindings(capacity: 1)
            binds.append(log)
            let query = PostgresQuery(unsafeSQL: sql, binds: binds)
            var outcome = Outcome()
            if sql.hasPrefix("EXPLAIN") {
                outcome.plan = try await BenchSQL.texts(query, on: connection, logger: logger).joined(separator: "\n")
            } else {
                let watch = Stopwatch()
                let value = try await BenchSQL.integer(query, on: connection, logger: logger)
                outcome.timed = (value, watch.elapsedSeconds)
            }
            try await BenchSQL.execute("COMMIT", on: connection, logger: logger)
            return outcome
        } catch {
            _ = try? await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }
}
