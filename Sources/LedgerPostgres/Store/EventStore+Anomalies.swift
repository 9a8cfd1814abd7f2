import LedgerCore
import PostgresNIO

extension EventStore {
    /// How many anomalies of each kind are marked in `log` (see sql/tables/anomalies.sql).
    public func anomalyCounts(log: String) async throws -> [String: Int] {
        let rows = try await client.query(
            "SELECT kind, count(*) FROM ledger.anomalies WHERE log_id = \(log) GROUP BY kind", logger: logger)
        var counts: [String: Int] = [:]
        for try await (kind, count) in rows.decode((String, Int64).self) { counts[kind] = Int(count) }
        return counts
    }
}
