import LedgerCore
import Logging
import PostgresNIO

/// Proves records a report cites against a signed checkpoint, in the database: each record's leaf
/// hash recomputed from its bytes, its columns compared with it (`ledger.column_problems`), and its
/// audit path recomputed from the stored tree up to the checkpoint's root.
///
/// The path check recomputes every stored node above the cited leaves, level by level, from its
/// two stored children (a leaf's children are events' leaf hashes), up to the complete subtrees the
/// checkpoint's size splits into: the nodes ``StoredCheckpoint/problems(pool:logger:)`` hashed
/// into the signed root. So a record changed behind the database's back fails whether its leaf hash,
/// its node or none of them was rewritten along with it.
struct CitedRecordProof: Sendable {
    let log: String
    let checkpoint: StoredCheckpoint
    /// The positions to prove, each at or below the checkpoint's size.
    let positions: [Int64]

    /// The first problem, or nil when every record is proved.
    func run(pool: LedgerPool, logger: Logger) async throws -> String? {
        let size = Int64(checkpoint.treeSize)
        if let beyond = positions.first(where: { $0 > size || $0 < 1 }) {
            return "position \(beyond) is cited but lies outside the checkpoint of \(size) events"
        }
        for try await (position, missing) in try await pool.query("""
            SELECT c.position, e.position IS NULL
              FROM unnest(\(positions)::bigint[]) c(position)
              LEFT JOIN ledger.events e ON e.log_id = \(log) AND e.position = c.position
             WHERE e.position IS NULL OR e.leaf_hash <> sha256('\\x00'::bytea || e.record)
             ORDER BY c.position LIMIT 1
            """, logger: logger).decode((Int64, Bool).self) {
            return missing ? "position \(position) is cited by the report but no event is stored there"
                : "position \(position): the leaf hash does not match the stored record"
        }
        for try await (position, problem) in try await pool.query(
            "SELECT position, problem FROM ledger.column_problems(\(log), \(positions))", logger: logger).decode((Int64, String).self) {
            return "position \(position): \(problem)"
        }
        // Levels 1 up to the highest a node of a tree of `size` leaves can stand at.
        let top = 63 - size.leadingZeroBitCount
        guard top >= 1 else { return nil }
        let rows = try await pool.query("""
            WITH leaves AS (SELECT position - 1 AS leaf FROM unnest(\(positions)::bigint[]) position),
                 nodes AS (SELECT DISTINCT k::smallint AS level, leaf >> k::integer AS index
                             FROM leaves, generate_series(1, \(Int64(top))) k
                            WHERE ((leaf >> k::integer) + 1) << k::integer <= \(size))
            SELECT n.level, n.index
              FROM nodes n
              LEFT JOIN ledger.merkle_nodes p ON p.log_id = \(log) AND p.level = n.level AND p.index = n.index
              LEFT JOIN ledger.merkle_nodes l ON n.level > 1 AND l.log_id = \(log) AND l.level = n.level - 1 AND l.index = 2 * n.index
              LEFT JOIN ledger.merkle_nodes r ON n.level > 1 AND r.log_id = \(log) AND r.level = n.level - 1 AND r.index = 2 * n.index + 1
              LEFT JOIN ledger.events le ON n.level = 1 AND le.log_id = \(log) AND le.position = 2 * n.index + 1
              LEFT JOIN ledger.events re ON n.level = 1 AND re.log_id = \(log) AND re.position = 2 * n.index + 2
             WHERE p.hash IS DISTINCT FROM sha256('\\x01'::bytea || coalesce(l.hash, le.leaf_hash) || coalesce(r.hash, re.leaf_hash))
             ORDER BY n.index << n.level::integer, n.level LIMIT 1
            """, logger: logger)
        for try await (level, index) in rows.decode((Int16, Int64).self) {
            let first = (index << Int64(level)) + 1
            return "the stored Merkle node at level \(level), index \(index) (positions \(first) to \(first + (1 << Int64(level)) - 1)) "
                + "is not the hash of its children: a cited record below it cannot be proved in the checkpoint of \(size) events"
        }
        return nil
    }
}
