import Logging
import PostgresNIO

/// The size of `report_facts.facts` (heap and its indexes), of the report's counts beside it
/// (`period_counts`, `install_days`), and of `anomalies.findings`.
struct FactsSize: Sendable {
    /// `pg_relation_size` and `pg_indexes_size` of `report_facts.facts`, in bytes.
    var heapBytes: Int64 = 0
    var indexBytes: Int64 = 0
    /// `pg_total_relation_size` of `report_facts.period_counts` and `report_facts.install_days`, in bytes.
    var periodCountsBytes: Int64 = 0
    var installDaysBytes: Int64 = 0
    /// `pg_total_relation_size` of `anomalies.findings`, in bytes.
    var findingsBytes: Int64 = 0

    /// Reads the sizes.
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> FactsSize {
        FactsSize(heapBytes: try await BenchSQL.integer("SELECT pg_relation_size('report_facts.facts')", on: connection, logger: logger),
                  indexBytes: try await BenchSQL.integer("SELECT pg_indexes_size('report_facts.facts')", on: connection, logger: logger),
                  periodCountsBytes: try await BenchSQL.integer("SELECT pg_total_relation_size('report_facts.period_counts')",
                                                                on: connection, logger: logger),
                  installDaysBytes: try await BenchSQL.integer("SELECT pg_total_relation_size('report_facts.install_days')",
                                                               on: connection, logger: logger),
                  findingsBytes: try await BenchSQL.integer("SELECT pg_total_relation_size('anomalies.findings')",
                                                            on: connection, logger: logger))
    }
}
