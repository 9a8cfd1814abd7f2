import LedgerCore
import Logging
import PostgresNIO

/// Where a report reads the projections it is computed from, as of a position P (decision 0021).
/// One rule, for every report that reads projections:
///
/// - the live tables stand at P (built with this software's definition, checkpoint = P): the
///   report reads them;
/// - they stand before P: their rows for the log are copied into temporary tables and only the
///   missing positions (checkpoint, P] are folded on top, with the very fold statements of
///   catch-up;
/// - they stand past P (or are not built, or built by another definition): time travel, the fold
///   from position 0 into temporary tables (``TimeTravel``). A projection whose rows never change
///   after the fold that wrote them (``Projections/positionFinal``) is read live instead, since
///   a report reads it filtered by `position <= P`.
///
/// Everything happens in one rolled-back REPEATABLE READ transaction, so the live rows and their
/// checkpoint are read from one snapshot, and nothing is written: the auditor role can do it.
/// Whichever way is taken, the report's bytes are the same (tested).
struct ReportSource: Sendable {
    /// The projections a report reads.
    struct Projections: Sendable {
        /// Their definitions, each with whether its rows never change after the fold that wrote
        /// them, so that a live table folded past P, read filtered by position, is the table as of
        /// P. Their table names must not clash.
        var reads: [(definition: ProjectionDefinition, positionFinal: Bool)]

        /// Their definitions.
        var definitions: [ProjectionDefinition] { reads.map(\.definition) }

        /// The consent register report's: `consent_register`, whose rows change as questions are
        /// answered, expire and are rescinded; and `report_facts`, read filtered by position, for
        /// how each withdrawal was enforced (``WithdrawalEnforcement``).
        static var consentRegister: Projections {
            Projections(reads: [(.named(.consentRegister), false), (.named(.reportFacts), true)])
        }
        /// The subject dossier's: the findings of `anomalies`, read filtered by position (a finding
        /// is decided when its event is folded and never changes).
        static var findings: Projections {
            Projections(reads: [(.named(.anomalies), true)])
        }
        /// The regulator report's: `report_facts` and `anomalies`, read filtered by position
        /// (decision 0013).
        static var regulator: Projections {
            Projections(reads: [(.named(.reportFacts), true), (.named(.anomalies), true)])
        }
    }

    /// How one projection is reached.
    enum Way: Sendable, Equatable {
        /// Its live tables, as they stand.
        case live
        /// Its live rows, then the positions after `checkpoint` folded on top.
        case liveThenFold(checkpoint: Int64)
        /// Folded from position 0.
        case timeTravel
    }

    /// The pool.
    let pool: LedgerPool
    /// Where queries log.
    let logger: Logger

    /// How `projection`, whose live build has `builtHash` and has folded `log` to `checkpoint`,
    /// is reached as of `position`.
    static func way(to position: Int64, builtHash: String?, checkpoint: Int64, projection: ProjectionDefinition,
                    positionFinal: Bool) -> Way {
        guard builtHash == projection.definitionHash else { return .timeTravel }
        if checkpoint == position || (checkpoint > position && positionFinal) { return .live }
        if checkpoint < position { return .liveThenFold(checkpoint: checkpoint) }
        return .timeTravel
    }

    /// Runs `body` on a connection whose search_path finds `projections`' tables as of `position`
    /// of `log`, in a transaction rolled back afterwards. `note` hears which way each projection
    /// was reached; `progress` how far a fold has come (positions folded, positions to fold).
    func with<Result: Sendable>(
        log: String, position: Int64, projections: Projections,
        note: @escaping @Sendable (String) -> Void = { _ in },
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in },
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        return try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await connection.watchedQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
                var ways: [(ProjectionDefinition, Way)] = []
                for (projection, positionFinal) in projections.reads {
                    let built = try await ProjectionSchema.builtHash(projection.name, on: connection, logger: logger)
                    let checkpoint = built == nil ? 0 : try await Self.checkpoint(projection, log: log, on: connection, logger: logger)
                    let way = Self.way(to: position, builtHash: built, checkpoint: checkpoint, projection: projection,
                                       positionFinal: positionFinal)
                    note(Self.describe(projection, way: way, built: built, checkpoint: checkpoint, position: position))
                    ways.append((projection, way))
                }
                let folded = ways.filter { $0.1 != .live }
                if !folded.isEmpty {
                    try await ProjectionSchema.createTemporary(folded.map(\.0), on: connection, logger: logger)
                    var ranges: [(projection: ProjectionDefinition, after: Int64)] = []
                    for (projection, way) in folded {
                        if case .liveThenFold(let checkpoint) = way {
                            try await Self.copyLive(projection, log: log, on: connection, logger: logger)
                            ranges.append((projection, checkpoint))
                        } else {
                            ranges.append((projection, 0))
                        }
                    }
                    var travel = TimeTravel(pool: pool, logger: logger)
                    travel.progress = progress
                    try await travel.fold(ranges, log: log, through: position, on: connection)
                    // Temporary tables have no statistics until analysed (autovacuum never sees
                    // them): without them the report's joins over them are planned blind.
                    for (projection, _) in folded {
                        for table in try await ProjectionRows.tableNames(projection, schema: "pg_temp", on: connection, logger: logger) {
                            try await connection.watchedQuery(
                                PostgresQuery(unsafeSQL: "ANALYZE pg_temp.\(ProjectionSchema.quoted(table))"), logger: logger)
                        }
                    }
                }
                // Temporary tables come first whatever the path says; the live schemas after them.
                let path = (["pg_temp"] + ways.filter { $0.1 == .live }.map { ProjectionSchema.quoted($0.0.name) })
                    .joined(separator: ", ")
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = \(path)"), logger: logger)
                return try await body(connection)
            }
        }
    }

    /// The position the live `projection` has folded `log` to (0 when it has not started it).
    static func checkpoint(_ projection: ProjectionDefinition, log: String, on connection: PostgresConnection,
                           logger: Logger) async throws -> Int64 {
        var binds = PostgresBindings(capacity: 1)
        binds.append(log)
        var folded: Int64 = 0
        for try await position in try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
            SELECT position FROM \(ProjectionSchema.quoted(projection.name)).checkpoints WHERE log_id = $1
            """, binds: binds), logger: logger).decode(Int64.self) { folded = position }
        return folded
    }

    /// Copies `log`'s rows of the live tables of `projection` into its temporary tables (created
    /// empty before), every column but the generated ones, which the copy computes again.
    static func copyLive(_ projection: ProjectionDefinition, log: String, on connection: PostgresConnection,
                         logger: Logger) async throws {
        let schema = ProjectionSchema.quoted(projection.name)
        for table in try await ProjectionRows.tableNames(projection, schema: projection.name, on: connection, logger: logger) {
            var binds = PostgresBindings(capacity: 2)
            binds.append(projection.name)
            binds.append(table)
            var columns: [String] = []
            for try await column in try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
                SELECT a.attname::text FROM pg_attribute a
                 WHERE a.attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass
                   AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                 ORDER BY a.attnum
                """, binds: binds), logger: logger).decode(String.self) { columns.append(ProjectionSchema.quoted(column)) }
            let list = columns.joined(separator: ", ")
            var logBind = PostgresBindings(capacity: 1)
            logBind.append(log)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: """
                INSERT INTO pg_temp.\(ProjectionSchema.quoted(table)) (\(list))
                SELECT \(list) FROM \(schema).\(ProjectionSchema.quoted(table)) WHERE log_id = $1
                """, binds: logBind), logger: logger)
        }
    }

    /// One line saying how `projection` is reached.
    static func describe(_ projection: ProjectionDefinition, way: Way, built: String?, checkpoint: Int64,
                         position: Int64) -> String {
        switch way {
        case .live:
            return "\(projection.name): reading the live tables (folded to position \(checkpoint))"
        case .liveThenFold(let checkpoint):
            return "\(projection.name): reading the live tables (folded to position \(checkpoint)) and folding positions "
                + "\(checkpoint + 1) to \(position) on top in a private transaction"
        case .timeTravel:
            let why = built == nil ? "is not built"
                : built != projection.definitionHash ? "is not built with this software's definition"
                : "has folded past position \(position) (to \(checkpoint))"
            return "\(projection.name) \(why): folding from the start in a private transaction"
                + (built == projection.definitionHash ? "" : " (`consent-ledger project run` makes the next report faster)")
        }
    }
}
