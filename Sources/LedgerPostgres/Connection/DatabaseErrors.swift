import Foundation
import LedgerCore
import PostgresNIO

/// Turns PostgreSQL's errors into ``LedgerError``s that say what to do.
///
/// The ledger's own SQL raises SQLSTATEs of class `CL` (see sql/functions/append-events.sql):
/// CL001 wrong expected version, CL002 idempotency key reused, CL003 duplicate event id,
/// CL004 invalid event, CL005 append-only violation, CL006 refused hashes, CL007 invalid log id,
/// CL008 no such log, CL009 checkpoint refused, CL010 an event the function called may not store
/// (its type or actor: decision 0056).
public enum DatabaseErrors {
    /// A `database-busy` error: the database is up, but every connection of the pool stayed in use
    /// for the whole bound on a request's wait; nothing was done (503 with Retry-After).
    public static func busy(_ message: String) -> LedgerError {
        LedgerError(.databaseBusy, message,
                    hint: "Try again after Retry-After; nothing was done. If it lasts, other requests hold the connections (docs/operations.md, \"Fair sharing\").")
    }

    /// A `database-unavailable` error: the database is down, restarting or refusing connections,
    /// and the same request may succeed in a moment (the server answers 503 with Retry-After).
    public static func unavailable(_ message: String) -> LedgerError {
        LedgerError(.databaseUnavailable, message,
                    hint: "Try again in a moment; if it lasts, check that PostgreSQL is running (consent-ledger db status).")
    }

    /// An `outcome-unknown` error: the connection was lost (`reason`) after COMMIT was sent and
    /// before its answer came, so the transaction may have committed or rolled back, and nothing
    /// on this side can tell which. Never "nothing was stored": that is said only of a transaction
    /// the server answered with a refusal.
    public static func outcomeUnknown(_ reason: String) -> LedgerError {
        LedgerError(.outcomeUnknown,
                    "the outcome is unknown: the connection to the database was lost while the commit was in flight (\(reason)), "
                        + "so what it wrote may or may not have been stored",
                    hint: "Running the same append again is safe: a batch the ledger has is recognised by its idempotency key "
                        + "and not stored twice. Check other work (an erasure, a key) before repeating it.")
    }

    /// What an error raised by COMMIT means: a lost connection (no answer, or the server going
    /// away) leaves the outcome unknown (``outcomeUnknown(_:)``); any other answer of the server
    /// is a refusal, after which the transaction is known to have rolled back, translated as usual.
    public static func translateCommitFailure(_ error: any Error) -> any Error {
        guard isConnectionLoss(error) else { return translateAny(error) }
        let reason: String
        if let error = error as? PSQLError {
            reason = error.serverInfo?[.message] ?? plainReason(error)
        } else if let error = error as? LedgerError {
            reason = error.message
        } else {
            reason = String(describing: error)
        }
        return outcomeUnknown(reason)
    }

    /// Whether `error` says the connection went away rather than that the server refused a
    /// statement: no answer at all (the socket closed or failed), or the server's own word that it
    /// is ending the session (SQLSTATE class 08, 57P01-57P03), or the watcher of
    /// `watchedQuery` finding the connection closed.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        switch error {
        case let error as PSQLError:
            guard let state = error.serverInfo?[.sqlState] else { return true }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        case let error as LedgerError:
            return error.code == .databaseUnavailable
        default:
            return String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError")
        }
    }

    /// The batch index (1-based) named in the error's detail (`batch_index=3`), if any.
    static func batchIndex(of error: PSQLError) -> Int? {
        guard let detail = error.serverInfo?[.detail],
              let range = detail.range(of: "batch_index=") else { return nil }
        return Int(detail[range.upperBound...].prefix { $0.isNumber })
    }

    /// Translates any error that reached a command's edge: PostgreSQL's and the connection pool's
    /// into ``LedgerError``s, anything else unchanged.
    public static func translateAny(_ error: any Error) -> any Error {
        if let error = error as? PSQLError { return translate(error) }
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") {
            return LedgerError(.databaseUnavailable, "the database cannot be reached (\(error))",
                               hint: "Check that the server is running and reachable, then try again.")
        }
        if let error = error as? PostgresDecodingError {
            return LedgerError(.databaseError, "a column of \(error.columnName) (type \(error.postgresType)) could not be read as \(error.targetType)",
                               hint: "The database's schema does not match this build; run `consent-ledger migrate`.")
        }
        return error
    }

    /// Whether an error is a passing one (the server unreachable or restarting, a lost connection,
    /// a pool with no connection free in time), after which the same work may succeed if tried
    /// again; errors the database gave an answer for (a missing schema, a refused statement) are not.
    public static func isTransient(_ error: any Error) -> Bool {
        switch translateAny(error) {
        case let ledger as LedgerError: return [.databaseUnavailable, .outcomeUnknown, .databaseBusy].contains(ledger.code)
        default: return false
        }
    }

    /// Translates an error raised by a query.
    public static func translate(_ error: PSQLError) -> Error {
        guard let info = error.serverInfo, let state = info[.sqlState] else {
            return LedgerError(.databaseUnavailable, "the database connection failed: \(plainReason(error))",
                               hint: "Check that the server is running and reachable, then try again.")
        }
        let message = info[.message] ?? "database error"
        let hint = info[.hint]
        let code: LedgerError.Code
        switch state {
        case "CL001": code = .wrongExpectedVersion
        case "CL002": code = .idempotencyKeyReused
        case "CL003": code = .duplicateEventId
        case "CL004": code = .invalidField
        case "CL005", "CL006": code = .immutabilityViolation
        case "CL007": code = .invalidLogId
        case "CL008": code = .logNotFound
        case "CL009": code = .checkpointRefused
        case "CL010": code = .appendNotPermitted
        case "42501":
            return LedgerError(.immutabilityViolation, message,
                               hint: "The database role this connection uses may not do this: the application role appends "
                                   + "and reads, the auditor reads, the projector folds, the deliverer sends webhooks, and only the "
                                   + "administrator migrates, erases, applies retention, loads in bulk and manages API keys and "
                                   + "webhook subscriptions (docs/operations.md, \"Who may do what\").")
        case _ where state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state):
            // The connection failed, the server is shutting down, restarting or starting up, or
            // has no connection slot left: the same request may succeed in a moment.
            return unavailable("the database cannot serve now: \(message) (SQLSTATE \(state))")
        case "53100", "53200":
            // Its disk or its memory is full (found by tools/faults disk-full: serve answered 500).
            // Nothing of the request was stored, and it may succeed once an operator frees space.
            return LedgerError(.databaseUnavailable, "the database cannot serve now: \(message) (SQLSTATE \(state))",
                               hint: "Nothing of this request was stored. Free space on the database server's disk "
                                   + "(or memory), then try again; the same request is safe to send again.")
        case "3F000", "42P01", "42883":
            // No schema at all, or one older than this binary (a function or table it added is
            // not there yet): migrate creates or upgrades it either way.
            return LedgerError(.schemaMissing, "the database has no ledger schema, or one older than this consent-ledger (\(message))",
                               hint: "Run `consent-ledger migrate` first: it creates the schema, or upgrades it to this version.")
        default:
            return LedgerError(.databaseError, "\(message) (SQLSTATE \(state))", hint: hint)
        }
        return LedgerError(code, message, line: batchIndex(of: error), hint: hint)
    }

    /// Translates an error raised while connecting.
    public static func translateConnect(_ error: PSQLError, settings: ConnectionSettings) -> Error {
        if let info = error.serverInfo, let state = info[.sqlState] {
            let message = info[.message] ?? "connection refused"
            switch state {
            case "3D000":
                return LedgerError(.schemaMissing, "\(message) at \(settings.displayName)",
                                   hint: "Create the database first (`createdb \(settings.database)`, or CREATE DATABASE \(settings.database) "
                                       + "as a role that may), then run `consent-ledger migrate` with the same URL: migrate creates the ledger's "
                                       + "roles and schema inside an existing database; it does not create the database.")
            case "28000" where message.contains("consent_ledger"):
                return LedgerError(.schemaMissing, "\(message) at \(settings.displayName)",
                                   hint: "Run `consent-ledger migrate` first: it creates the ledger's roles and schema.")
            case "28P01", "28000":
                return LedgerError(.databaseUnavailable, "\(message) at \(settings.displayName)",
                                   hint: "Check the user name and password in the database URL.")
            default:
                return LedgerError(.databaseUnavailable, "\(message) (SQLSTATE \(state)) at \(settings.displayName)")
            }
        }
        return LedgerError(.databaseUnavailable, "cannot connect to \(settings.displayName): \(plainReason(error))",
                           hint: "Start PostgreSQL there (for the embedded database: consent-ledger db start; "
                               + "consent-ledger db status says whether it runs), or correct the database URL "
                               + "(--database-url or DATABASE_URL): its host, port or socket folder.")
    }

    /// The error for a server that accepted the connection but did not answer within `limit`.
    public static func noAnswer(settings: ConnectionSettings, within limit: Duration) -> LedgerError {
        LedgerError(.databaseUnavailable,
                    "no answer from \(settings.displayName) within \(LedgerPool.seconds(limit)): something accepts connections there "
                        + "but does not answer as PostgreSQL does (a server that is hung, paused, overloaded or not PostgreSQL)",
                    hint: "Check that PostgreSQL is running and healthy there (pg_isready; for the embedded database: "
                        + "consent-ledger db status, and consent-ledger db stop then db start), and that the database URL "
                        + "(--database-url or DATABASE_URL) names PostgreSQL's host and port.")
    }

    /// What went wrong with a connection, in words: the operating system's message for the error
    /// number the networking library reports (`connection refused`, `no such file or directory`
    /// for a socket that is not there), rather than the library's internal description.
    static func plainReason(_ error: PSQLError) -> String {
        let text = String(reflecting: error.underlying ?? error)
        if let range = text.range(of: "errno: "), let number = Int32(text[range.upperBound...].prefix { $0.isNumber }) {
            switch number {
            case ECONNREFUSED: return "nothing is listening there (connection refused)"
            case ENOENT: return "there is no PostgreSQL socket there (no such file)"
            default: return String(cString: strerror(number)).lowercased()
            }
        }
        if text.contains("timeout") || text.contains("Timeout") { return "the connection timed out" }
        return error.code.description
    }
}
