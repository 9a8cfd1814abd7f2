import LedgerCore
import Logging
import PostgresNIO
import Synchronization

/// Which database function a pool's role stores a batch through (decision 0072): the choice the
/// role makes, whatever the ``AppendMode``. Both end in the insert trigger on `ledger.events`.
public enum AppendFunction: String, Sendable {
    /// `ledger.append_checked_events`: the ledger's own writer (`consent_ledger_writer`, or the
    /// owner) hands PostgreSQL a batch it has checked against the catalogue itself, with the
    /// columns read from each event; the database checks the integrity gate only.
    case checked
    /// `ledger.append_events`: any other role (`consent_ledger_app`); the database checks the
    /// catalogue again, as it does for psql or any client.
    case catalogueInSQL = "catalogue-in-sql"

    /// The function's name in the database.
    public var sqlName: String {
        switch self {
        case .checked: "ledger.append_checked_events"
        case .catalogueInSQL: "ledger.append_events"
        }
    }

    /// The function of the role a connection logs in as: checked when it may execute
    /// `ledger.append_checked_events`.
    static func of(_ connection: PostgresConnection, logger: Logger) async throws -> AppendFunction {
        let rows = try await connection.watchedQuery("""
            SELECT CASE WHEN f.oid IS NULL THEN false ELSE has_function_privilege(f.oid, 'EXECUTE') END
              FROM (SELECT to_regprocedure('ledger.append_checked_events(text, text[], uuid[], text[], text[], integer[],
                     timestamptz[], text[], text[], text[], text[], text[], text[], text, bytea, text[])')::oid AS oid) f
            """, logger: logger)
        for try await may in rows.decode(Bool.self) { return may ? .checked : .catalogueInSQL }
        return .catalogueInSQL
    }
}

/// A pool's ``AppendFunction``, asked of the database at its first append and kept: a pool's role
/// does not change while it runs (a grant changed meanwhile is seen by the next process).
final class AppendFunctionCache: Sendable {
    private let function = Mutex<AppendFunction?>(nil)

    /// The function, asking `connection` the first time.
    func function(on connection: PostgresConnection, logger: Logger) async throws -> AppendFunction {
        if let known = function.withLock({ $0 }) { return known }
        let found = try await AppendFunction.of(connection, logger: logger)
        function.withLock { $0 = found }
        logger.debug("appends store through \(found.sqlName)", metadata: ["append.function": "\(found.rawValue)"])
        return found
    }
}
