import LedgerCore
import Logging
import PostgresNIO

/// Every leaf hash and chain link of a range of positions recomputed inside the database, in
/// ranges checked side by side on separate connections (each range starts from the stored chain
/// hash before it, so the ranges are independent; together they check every link), and, when asked
/// (`columns`: a report, whose projections read them), every event's columns compared with its
/// record by the database's rule (`ledger.event_column_problem`). `consent-ledger verify` checks more (each record's fields against its
/// columns, canonical form) and streams every record to the client, which is too slow to run on
/// every report of a large log; what is checked here is what makes the report's position and head
/// hash trustworthy: that every record up to P hashes to the chain ending in that head hash.
struct ChainCheck: Sendable {
    /// The last position checked.
    var through: Int64
    /// The first problem found, if any.
    var problem: String?
    /// True when every hash and link checked out.
    var passed: Bool { problem == nil }

    /// Checks positions `from` to `through` of `log` in ranges of `rangeSize`, `parallelism` at a
    /// time (the link into `from` is checked from the stored chain hash before it).
    /// A stretch shorter than `parallelism` ranges is split so that every connection gets a share
    /// (at least 10,000 positions each).
    static func run(log: String, from: Int64 = 1, through: Int64, columns: Bool = false, rangeSize: Int64 = 1_000_000,
                    parallelism: Int = 2, pool: LedgerPool, logger: Logger) async throws -> ChainCheck {
        let first = max(from, 1)
        let share = (through - first + 1 + Int64(max(1, parallelism)) - 1) / Int64(max(1, parallelism))
        let size = max(10_000, min(rangeSize, share))
        let ranges = stride(from: first, through: max(through, 1), by: Int(size)).map { ($0, min(through, $0 + size - 1)) }
            .filter { $0.0 <= $0.1 }
        var problems: [(Int64, String)] = []
        try await withThrowingTaskGroup(of: (Int64, String)?.self) { group in
            var next = 0
            func start() {
                guard next < ranges.count else { return }
                let (first, last) = ranges[next]
                next += 1
                group.addTask { try await check(log: log, first: first, last: last, columns: columns, pool: pool, logger: logger) }
            }
            for _ in 0..<max(1, parallelism) { start() }
            while let found = try await group.next() {
                if let found { problems.append(found) }
                start()
            }
        }
        return ChainCheck(through: through, problem: problems.min { $0.0 < $1.0 }.map { "position \($0.0): \($0.1)" })
    }

    /// The first bad position of [first, last] and what is wrong there, or nil.
    private static func check(log: String, first: Int64, last: Int64, columns: Bool, pool: LedgerPool,
                              logger: Logger) async throws -> (Int64, String)? {
        let (found, unreadable) = try await counts(log: log, first: first, last: last, columns: columns, pool: pool, logger: logger)
        guard let (count, badLeaf, badLink, badColumns) = found else { return (first, "nothing could be read") }
        let expected = last - first + 1
        if count != expected {
            return (first, "positions \(first) to \(last) should hold \(expected) events, but \(count) are stored")
        }
        let leaf = badLeaf.map { ($0, "the leaf hash does not match the stored record") }
        let link = badLink.map { ($0, "the chain hash does not follow from the previous chain hash and this leaf hash") }
        if let first = [leaf, link].compactMap({ $0 }).min(by: { $0.0 < $1.0 }), first.0 <= badColumns ?? Int64.max {
            return first
        }
        if unreadable {
            // Every hash checks, yet a record cannot be read as JSON: ask the rule event by event.
            return try await columnProblem(log: log, positions: Array(first...last), pool: pool, logger: logger)
                ?? (first, "a record between positions \(first) and \(last) cannot be read as JSON")
        }
        guard let badColumns else { return nil }
        return try await columnProblem(log: log, positions: [badColumns], pool: pool, logger: logger)
            ?? (badColumns, "its columns do not agree with its record")
    }

    /// The count of events read and the first position whose leaf, link or columns are wrong. A
    /// record PostgreSQL cannot read as JSON stops the comparison of columns: the range is then
    /// read again without it (a changed record fails its leaf hash), and `unreadable` says so.
    private static func counts(log: String, first: Int64, last: Int64, columns: Bool, pool: LedgerPool,
                               logger: Logger) async throws -> (found: (Int64, Int64?, Int64?, Int64?)?, unreadable: Bool) {
        try await pool.withConnection { connection in
            func read(columns: Bool) async throws -> (Int64, Int64?, Int64?, Int64?)? {
                var binds = PostgresBindings(capacity: 4)
                binds.append(log)
                binds.append(first)
                binds.append(last)
                binds.append(columns)
                // One short statement over many rows: JIT compilation costs more than it saves here
                // (0.2-0.3 s per million positions, docs/benchmarks.md).
                return try await connection.inTransaction(logger: logger) { connection in
                    try await connection.watchedQuery("SET LOCAL jit = off", logger: logger)
                    let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                    var found: (Int64, Int64?, Int64?, Int64?)?
                    for try await row in rows.decode((Int64, Int64?, Int64?, Int64?).self) { found = row }
                    return found
                }
            }
            do {
                return (try await read(columns: columns), false)
            } catch let error as PSQLError where columns && error.serverInfo?[.sqlState]?.hasPrefix("22") == true {
                return (try await read(columns: false), true)
            }
        }
    }

    /// The database's own words for the first of `positions` whose columns disagree with its record.
    private static func columnProblem(log: String, positions: [Int64], pool: LedgerPool,
                                      logger: Logger) async throws -> (Int64, String)? {
        let rows = try await pool.query("SELECT position, problem FROM ledger.column_problems(\(log), \(positions))", logger: logger)
        for try await (position, problem) in rows.decode((Int64, String).self) { return (position, problem) }
        return nil
    }

    /// $1 log, $2 first, $3 last, $4 whether to compare the columns (without it `doc` is NULL and
    /// the rule is not asked). The first position's
    /// predecessor is read from the log (32 zero bytes before position 1).
    private static let sql = """
        SELECT count(*)::bigint,
               min(e.position) FILTER (WHERE e.leaf_hash <> sha256('\\x00'::bytea || e.record)),
               min(e.position) FILTER (WHERE e.chain_hash <> sha256(e.previous || e.leaf_hash)),
               min(e.position) FILTER (WHERE d.doc IS NOT NULL AND ledger.event_column_problem(
                   e.log_id, e.position, e.event_id, e.stream, e.stream_version, e.type, e.schema_version, e.occurred_at,
                   e.recorded_at, e.subject, e.actor_kind, e.actor_id, e.correlation_id, e.causation_id, d.doc) IS NOT NULL)
          FROM (SELECT *,
                       coalesce(lag(chain_hash) OVER (ORDER BY position),
                                (SELECT p.chain_hash FROM ledger.events p WHERE p.log_id = $1 AND p.position = $2 - 1),
                                CASE WHEN $2 = 1 THEN '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea END)
                         AS previous
                  FROM ledger.events
                 WHERE log_id = $1 AND position BETWEEN $2 AND $3) e
          -- The record parsed once, in a subquery the planner keeps (OFFSET 0): passed as a column,
          -- the rule is inlined; passed as the expression, it is not (the parse would be repeated
          -- for each of its uses), and the check cost 69 µs an event instead of 18 (measured on
          -- 120,000 simulated events). Without $4 the record is not parsed at all.
          CROSS JOIN LATERAL (SELECT CASE WHEN $4 THEN convert_from(e.record, 'UTF8')::jsonb END AS doc OFFSET 0) d
        """
}
