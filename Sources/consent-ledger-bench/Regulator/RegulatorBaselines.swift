import Foundation
import Logging
import PostgresNIO

/// The yardsticks the regulator report is set beside, on the same rows in the same run, on the
/// auditor's connection with the server's default settings (the planner chooses, parallel workers
/// allowed, as for the report's own statements): `count(*)` of the whole log, of the quarter's
/// events through `events_occurred_at`, of the quarter's `report_facts.facts` rows through
/// `facts_period`, and a read of every record of the log (`sum(length(record))`: what the
/// integrity step cannot avoid, since it hashes every record).
enum RegulatorBaselines {
    /// One baseline: its name, its query (`$1` log, `$2` and `$3` the quarter), and the index its
    /// plan must use (nil: any plan).
    struct Query: Sendable {
        let name: String
        let sql: String
        let index: String?
    }

    /// The baselines, in the report's order.
    static let queries = [
        Query(name: "count(*) of the whole log", sql: "SELECT count(*) FROM ledger.events WHERE log_id = $1", index: nil),
        Query(name: "count(*) of the quarter's events",
              sql: "SELECT count(*) FROM ledger.events WHERE log_id = $1 AND occurred_at >= $2 AND occurred_at < $3",
              index: "events_occurred_at"),
        Query(name: "count(*) of the quarter's report_facts",
              sql: "SELECT count(*) FROM report_facts.facts WHERE log_id = $1 AND occurred_at >= $2 AND occurred_at < $3",
              index: "facts_period"),
        Query(name: "sum(length(record)) of the whole log",
              sql: "SELECT sum(length(record)) FROM ledger.events WHERE log_id = $1", index: nil),
    ]

    /// One baseline's figures.
    struct Timing: Sendable {
        var query: Query
        /// The plan's scan nodes, one line.
        var plan = ""
        /// What it returned.
        var value: Int64 = 0
        /// Each timed run, in seconds.
        var seconds: [Double] = []
        var best: Double { seconds.min() ?? .nan }
        var median: Double { PathTiming.median(seconds) }
    }

    /// Checks each plan (and uses the index it must), runs each once untimed to warm the caches.
    static func prepare(log: String, quarter: RegulatorScope.Quarter, on connection: PostgresConnection,
                        logger: Logger) async throws -> [Timing] {
        var timings: [Timing] = []
        for query in queries {
            let plan = try await BenchSQL.texts(bound("EXPLAIN " + query.sql, log: log, quarter: quarter), on: connection, logger: logger)
            if let index = query.index, !plan.contains(where: { $0.contains(index) }) {
                throw BenchError("\(query.name): expected a plan through \(index), the plan is:\n\(plan.joined(separator: "\n"))")
            }
            let scans = plan.compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "")
                guard text.contains("Scan") || text.hasPrefix("Gather") else { return nil }
                return text.components(separatedBy: "  (cost=").first
            }
            timings.append(Timing(query: query, plan: scans.joined(separator: " > ")))
            _ = try await BenchSQL.integer(bound(query.sql, log: log, quarter: quarter), on: connection, logger: logger)
        }
        return timings
    }

    /// One timed run of every baseline, appended to `timings`.
    static func round(_ timings: inout [Timing], log: String, quarter: RegulatorScope.Quarter, on connection: PostgresConnection,
                      logger: Logger) async throws {
        for index in timings.indices {
            let watch = Stopwatch()
            let value = try await BenchSQL.integer(bound(timings[index].query.sql, log: log, quarter: quarter),
                                                   on: connection, logger: logger)
            let seconds = watch.elapsedSeconds
            timings[index].seconds.append(seconds)
            timings[index].value = value
            Progress.note("  baseline: \(timings[index].query.name): \(ReportText.grouped(Double(value))) in "
                + "\(ReportText.fixed(seconds, 3)) s")
        }
    }

    /// `sql` with the binds its `$n` name.
    private static func bound(_ sql: String, log: String, quarter: RegulatorScope.Quarter) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        if sql.contains("$2") {
            binds.append(quarter.from)
            binds.append(quarter.to)
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
