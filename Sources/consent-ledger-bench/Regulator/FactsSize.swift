import Logging
import PostgresNIO

/// The size of `report_facts.facts` (heap and its indexes), and of `anomalies.findings`.
struct FactsSize: Sendable {
    /// `pg_relation_size` and `pg_indexes_size` of `report_facts.facts`, in bytes.
    var heapBytes: Int64 = 0
    var indexBytes: Int64 = 0
    /// `pg_total_relation_size` of `anomalies.findings`, in bytes.
    var findingsBytes: Int64 = 0

    /// Reads the three sizes.
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> FactsSize {
        FactsSize(heapBytes: try await BenchSQL.integer("SELECT pg_relation_size('report_facts.facts')", on: connection, logger: logger),
                  indexBytes: try await BenchSQL.integer("SELECT pg_indexes_size('report_facts.facts')", on: connection, logger: logger),
                  findingsBytes: try await BenchSQL.integer("SELECT pg_total_relation_size('anomalies.findings')",
                                                            on: connection, logger: logger))
    }
}
