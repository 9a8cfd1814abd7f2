import LedgerCore
import Logging
import PostgresNIO

/// The read models a report reads as of a position P. Some projections never change a row after
/// the fold that wrote it (`report_facts`, and `anomalies.findings`), so their rows at positions up
/// to P are exactly what a fold up to P writes: when their live tables are built with the current
/// definition and have folded at least to P, the report reads them filtered by position. Otherwise
/// it folds the same statements from the start in a rolled-back transaction (``TimeTravel``): the
/// same rows, slower. Either way the report's bytes are the same.
enum ReportState {
    /// The projections a regulator report reads.
    static let regulatorProjections = ["report_facts", "anomalies"]

    /// Runs `body` in a transaction whose search_path finds `projections`' tables as of `position`;
    /// `note` hears which way was taken. `body` must filter every read by `position <= P`.
    static func with<Result: Sendable>(
        log: String, position: Int64, projections names: [String], pool: LedgerPool, logger: Logger,
        note: @escaping @Sendable (String) -> Void,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let projections = try names.map { name throws(LedgerError) in try ProjectionDefinition.named(name) }
        let behind = try await pool.withConnection { connection in
            var behind: [String] = []
            for projection in projections {
                guard let built = try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger),
                      built == projection.definitionHash else {
                    behind.append("\(projection.name) is not built with this software's definition")
                    continue
                }
                var folded: Int64 = 0
                for try await position in try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
                    SELECT position FROM \(ProjectionSchema.quoted(projection.name)).checkpoints WHERE log_id = $1
                    """, binds: binds(log)), logger: logger).decode(Int64.self) { folded = position }
                if folded < position { behind.append("\(projection.name) has folded \(log) to position \(folded) of \(position)") }
            }
            return behind
        }
        guard behind.isEmpty else {
            note("\(behind.joined(separator: "; ")): folding from the start in a private transaction "
                 + "(`consent-ledger project run` makes the next report faster)")
            var travel = TimeTravel(pool: pool, logger: logger)
            travel.progress = { done, total in if done == total || done % 1_000_000 == 0 { note("folded \(done) of \(total) positions") } }
            return try await travel.withState(
                log: log, projections: projections, asOf: .position(position)) { connection, _ in try await body(connection) }
        }
        return try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await connection.watchedQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
                let path = projections.map { ProjectionSchema.quoted($0.name) }.joined(separator: ", ")
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = \(path)"), logger: logger)
                return try await body(connection)
            }
        }
    }

    private static func binds(_ log: String) -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(log)
        return binds
    }
}
