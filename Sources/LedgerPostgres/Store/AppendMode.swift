import LedgerCore
import Logging
import PostgresNIO
import Synchronization

/// How a pool's role stores a batch (decision 0072): the named modes of the one append path.
public enum AppendMode: String, Sendable {
    /// `ledger.append_checked_events`: the ledger's own writer (`consent_ledger_writer`, or the
    /// owner) hands PostgreSQL a batch it has checked against the catalogue itself, with the
    /// columns read from each event; the database checks the integrity gate only.
    case checked
    /// `ledger.append_events`: any other role (`consent_ledger_app`); the database checks the
    /// catalogue again, as it does for psql or any client.
    case catalogueInSQL = "catalogue-in-sql"

    /// The mode of the role a connection logs in as: checked when it may execute
    /// `ledger.append_checked_events`.
    static func of(_ connection: PostgresConnection, logger: Logger) async throws -> AppendMode {
        let rows = try await connection.watchedQuery("""
            SELECT CASE WHEN f.oid IS NULL THEN false ELSE has_function_privilege(f.oid, 'EXECUTE') END
              FROM (SELECT to_regprocedure('ledger.append_checked_events(text, text[], uuid[], text[], text[], integer[],
                     timestamptz[], text[], text[], text[], text[], text[], text[], text, bytea, text[])')::oid AS oid) f
            """, logger: logger)
        for try await may in rows.decode(Bool.self) { return may ? .checked : .catalogueInSQL }
        return .catalogueInSQL
    }
}

/// A pool's ``AppendMode``, asked of the database at its first append and kept: a pool's role does
/// not change while it runs (a grant changed meanwhile is seen by the next process).
final class AppendModeCache: Sendable {
    private let mode = Mutex<AppendMode?>(nil)

    /// The mode, asking `connection` the first time.
    func mode(on connection: PostgresConnection, logger: Logger) async throws -> AppendMode {
        if let known = mode.withLock({ $0 }) { return known }
        let found = try await AppendMode.of(connection, logger: logger)
        mode.withLock { $0 = found }
        logger.debug("appends store through \(found == .checked ? "ledger.append_checked_events" : "ledger.append_events")",
                     metadata: ["append.mode": "\(found.rawValue)"])
        return found
    }
}
