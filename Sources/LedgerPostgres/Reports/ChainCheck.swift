import LedgerCore
import Logging
import PostgresNIO

/// Every leaf hash and chain link of a range of positions recomputed inside the database, in
/// ranges checked side by side on separate connections (each range starts from the stored chain
/// hash before it, so the ranges are independent; together they check every link). `consent-ledger verify` checks more (each record's fields against its
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
    static func run(log: String, from: Int64 = 1, through: Int64, rangeSize: Int64 = 1_000_000, parallelism: Int = 2,
                    pool: LedgerPool, logger: Logger) async throws -> ChainCheck {
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
                group.addTask { try await check(log: log, first: first, last: last, pool: pool, logger: logger) }
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
    private static func check(log: String, first: Int64, last: Int64, pool: LedgerPool,
                              logger: Logger) async throws -> (Int64, String)? {
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(first)
        binds.append(last)
        let found = try await pool.withConnection { connection in
            // One short statement over many rows: JIT compilation costs more than it saves here
            // (0.2-0.3 s per million positions, docs/benchmarks.md).
            try await connection.inTransaction(logger: logger) { connection in
                try await connection.watchedQuery("SET LOCAL jit = off", logger: logger)
                let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                var found: (Int64, Int64?, Int64?)?
                for try await row in rows.decode((Int64, Int64?, Int64?).self) { found = row }
                return found
            }
        }
        guard let (count, badLeaf, badLink) = found else { return (first, "nothing could be read") }
        let expected = last - first + 1
        if count != expected {
            return (first, "positions \(first) to \(last) should hold \(expected) events, but \(count) are stored")
        }
        let leaf = badLeaf.map { ($0, "the leaf hash does not match the stored record") }
        let link = badLink.map { ($0, "the chain hash does not follow from the previous chain hash and this leaf hash") }
        return [leaf, link].compactMap { $0 }.min { $0.0 < $1.0 }
    }

    /// $1 log, $2 first, $3 last. The first position's predecessor is read from the log (32 zero
    /// bytes before position 1).
    private static let sql = """
        SELECT count(*)::bigint,
               min(e.position) FILTER (WHERE e.leaf_hash <> sha256('\\x00'::bytea || e.record)),
               min(e.position) FILTER (WHERE e.chain_hash <> sha256(e.previous || e.leaf_hash))
          FROM (SELECT position, record, leaf_hash, chain_hash,
                       coalesce(lag(chain_hash) OVER (ORDER BY position),
                                (SELECT p.chain_hash FROM ledger.events p WHERE p.log_id = $1 AND p.position = $2 - 1),
                                CASE WHEN $2 = 1 THEN '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea END)
                         AS previous
                  FROM ledger.events
                 WHERE log_id = $1 AND position BETWEEN $2 AND $3) e
        """
}
