import Logging
import PostgresNIO

/// A subject's state as one JSON object, read from `subject_state` and `consent_register` tables
/// (live, a time-travel copy, or a replay's), so every path prints state the same way and tests
/// can compare the paths byte for byte:
///
/// ```json
/// {"subject":"p_…","age":{"category":"13to15",…,"position":123},"parentalControls":[…],
///  "erased":false,"signals":[…],"features":[…],"consents":[…]}
/// ```
public enum SubjectSnapshot {
    /// One row per subject of log $1 (only subject $2 when it is not NULL), each the JSON text of
    /// its snapshot, in subject order: projections/reports/dossier/snapshot.sql. Unqualified table
    /// names: the caller's search_path picks the live schemas or temporary copies.
    static let sql = ReportSQL.subjectSnapshot

    /// The snapshots of `log`'s subjects (or only `subject`), as JSON texts in subject order.
    static func read(log: String, subject: String?, on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var binds = PostgresBindings(capacity: 2)
        binds.append(log)
        binds.append(subject)
        var result: [String] = []
        for try await text in try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            .decode(String.self) { result.append(text) }
        return result
    }

    /// The snapshots from the live projections (which must be built and caught up to mean "now").
    public static func live(log: String, subject: String?, pool: LedgerPool,
                            logger: Logger = Logger(label: "consent-ledger.projections")) async throws -> [String] {
        try await pool.withConnection { connection in
            try await connection.inRolledBackTransaction(logger: logger) { connection in
                try await connection.watchedQuery("SET LOCAL search_path = subject_state, consent_register, pg_temp", logger: logger)
                return try await read(log: log, subject: subject, on: connection, logger: logger)
            }
        }
    }
}
