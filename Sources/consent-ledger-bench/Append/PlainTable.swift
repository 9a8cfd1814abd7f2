import LedgerPostgres
import Logging
import PostgresNIO

/// The baseline tables: the columns and types of `ledger.events`, without its triggers, foreign
/// key and checks. `bench_plain` has no index at all; `bench_indexed` has the indexes
/// `ledger.events` has (its primary key and sql/indexes/), copied from the catalog, so the
/// difference between the two is the index cost and the rest of the ledger's time is its checks.
enum PlainTable: String, CaseIterable, Sendable {
    /// No index, no constraint.
    case plain = "bench_plain"
    /// The same indexes as `ledger.events`.
    case indexed = "bench_indexed"

    /// `public.<name>`.
    var qualifiedName: String { "public." + rawValue }

    /// The columns of `ledger.events`, in its order, with its types (and nothing else).
    static let columns = """
        log_id text, position bigint, event_id uuid, stream text, stream_version bigint, type text,
        schema_version integer, occurred_at timestamptz, recorded_at timestamptz, subject text,
        actor_kind text, actor_id text, correlation_id text, causation_id text, idempotency_key text,
        record bytea, leaf_hash bytea, chain_hash bytea
        """

    /// Drops the table and creates it empty (with its indexes, for `indexed`). Returns how many
    /// indexes it created.
    @discardableResult
    func recreate(on client: LedgerPool, logger: Logger) async throws -> Int {
        try await BenchSQL.execute("DROP TABLE IF EXISTS \(qualifiedName)", on: client, logger: logger)
        try await BenchSQL.execute("CREATE TABLE \(qualifiedName) (\(Self.columns))", on: client, logger: logger)
        guard self == .indexed else { return 0 }
        let definitions = try await Self.indexDefinitions(on: client, logger: logger)
        for definition in definitions {
            try await BenchSQL.execute(definition.replacingOccurrences(of: " ON ledger.events ", with: " ON \(qualifiedName) "),
                                   on: client, logger: logger)
        }
        return definitions.count
    }

    /// Checks that the table's columns are exactly those of `ledger.events` (names, order, types),
    /// so that the baseline stays the same rows if the ledger's table changes.
    func checkColumnsMatchLedger(on client: LedgerPool, logger: Logger) async throws {
        let ours = try await Self.columnList(of: qualifiedName, on: client, logger: logger)
        let ledger = try await Self.columnList(of: "ledger.events", on: client, logger: logger)
        guard ours == ledger else {
            throw BenchError("\(qualifiedName) has columns (\(ours)) but ledger.events has (\(ledger)); update PlainTable.columns and PlainBatch")
        }
    }

    /// `CREATE [UNIQUE] INDEX …` of every index on `ledger.events`, the primary key's included.
    static func indexDefinitions(on client: LedgerPool, logger: Logger) async throws -> [String] {
        let rows = try await client.query(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = 'ledger' AND tablename = 'events' ORDER BY indexname",
            logger: logger)
        var definitions: [String] = []
        for try await definition in rows.decode(String.self) { definitions.append(definition) }
        return definitions
    }

    private static func columnList(of table: String, on client: LedgerPool, logger: Logger) async throws -> String {
        let rows = try await client.query("""
            SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
              FROM pg_attribute WHERE attrelid = \(table)::regclass AND attnum > 0 AND NOT attisdropped
            """, logger: logger)
        for try await list in rows.decode(String.self) { return list }
        return ""
    }
}
