import LedgerCore
import Logging
import PostgresNIO

/// Applies the ledger schema (sql/, in manifest order) to a database.
///
/// Every file is re-runnable, and the whole manifest runs in one transaction under an advisory
/// lock, so migrating twice, or from two processes at once, is safe, and a failure leaves the
/// database as it was. A database whose recorded schema version is newer than this build's is
/// refused: an older binary must not "downgrade" a schema it does not understand.
///
/// Needs a role that may create roles and schemas (the embedded cluster's superuser, or an
/// administrator on an external server).
public struct Migrator: Sendable {
    /// What a migration did.
    public struct Outcome: Sendable, Equatable {
        /// The version before (nil: the database had no ledger schema).
        public var previousVersion: Int?
        /// The version now.
        public var version: Int
        /// How many files were applied.
        public var filesApplied: Int
    }

    /// The pool (connected as an administrator).
    public let pool: LedgerPool
    /// The schema to apply.
    public let manifest: SchemaManifest
    let logger: Logger

    /// Creates a migrator for the embedded schema.
    public init(pool: LedgerPool, manifest: SchemaManifest? = nil, logger: Logger = Logger(label: "consent-ledger.migrate")) throws {
        self.pool = pool
        self.manifest = try manifest ?? SchemaManifest.embedded()
        self.logger = logger
    }

    /// The schema version recorded in the database, or nil when it has no ledger schema.
    public func currentVersion() async throws -> Int? {
        try await pool.withConnection { connection in
            try await Self.recordedVersion(on: connection, logger: logger)
        }
    }

    /// Throws `schema-missing` when the database has no ledger schema, and `schema-too-new` when
    /// its schema is newer than this build: for work that needs the schema and must not create it.
    public func requireSchema() async throws {
        guard let version = try await currentVersion() else {
            throw LedgerError(.schemaMissing, "the database has no ledger schema",
                              hint: "Run `consent-ledger migrate` (with the same --database-url or --data-dir) first.")
        }
        if version > manifest.version {
            throw LedgerError(.schemaTooNew,
                              "the database's ledger schema is version \(version), newer than version \(manifest.version) that this build knows",
                              hint: "Use a consent-ledger build at least as new as the one that migrated this database.")
        }
    }

    /// Throws unless the database's schema is exactly this build's version: for `serve` on a
    /// server of the user's own, which connects as the application role and so cannot migrate
    /// (decision 0070). Names the command that fixes it.
    public func requireCurrent() async throws {
        try await requireSchema()
        guard let version = try await currentVersion(), version < manifest.version else { return }
        throw LedgerError(.schemaMissing,
                          "the database's ledger schema is version \(version), older than version \(manifest.version) that this build needs",
                          hint: "Run `consent-ledger migrate` with the administrator's --database-url first (docs/operations.md, "
                              + "\"Your own PostgreSQL\"); serve does not migrate a server of your own.")
    }

    /// Applies the schema.
    public func migrate() async throws -> Outcome {
        try await pool.withConnection { connection in
            _ = try await connection.watchedQuery("BEGIN", logger: logger)
            do {
                _ = try await connection.watchedQuery("SELECT pg_advisory_xact_lock(hashtext('consent_ledger.migrate'))", logger: logger)
                try await Self.requireRightToMigrate(on: connection, logger: logger)
                let previous = try await Self.recordedVersion(on: connection, logger: logger)
                if let previous, previous > manifest.version {
                    throw LedgerError(.schemaTooNew,
                                      "the database's ledger schema is version \(previous), newer than version \(manifest.version) that this build knows",
                                      hint: "Use a consent-ledger build at least as new as the one that migrated this database.")
                }
                for file in manifest.files {
                    do {
                        for statement in SQLScript.statements(in: file.sql) {
                            _ = try await connection.watchedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                    } catch let error as PSQLError {
                        let message = error.serverInfo?[.message] ?? String(reflecting: error)
                        throw LedgerError(.databaseError, "applying sql/\(file.path) failed: \(message)",
                                          hint: "Nothing was changed (the migration runs in one transaction).")
                    }
                }
                if previous != manifest.version {
                    _ = try await connection.watchedQuery(
                        "INSERT INTO ledger.schema_version (version, software) VALUES (\(manifest.version), \(LedgerSoftware.name))",
                        logger: logger)
                }
                _ = try await connection.watchedQuery("COMMIT", logger: logger)
                return Outcome(previousVersion: previous, version: manifest.version, filesApplied: manifest.files.count)
            } catch {
                _ = try? await connection.watchedQuery("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Throws unless the session's role may create roles (a superuser, or a role with CREATEROLE):
    /// before the first statement, so a role that may not migrate hears why, not a failure deep in
    /// sql/roles (decision 0070).
    static func requireRightToMigrate(on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.watchedQuery(
            "SELECT current_user::text, rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user", logger: logger)
        for try await (role, may) in rows.decode((String, Bool).self) where !may {
            throw LedgerError(.immutabilityViolation,
                              "the database role \(role) may not migrate: the migration creates the ledger's roles",
                              hint: "Run `consent-ledger migrate` with the administrator's --database-url: a superuser, or a role "
                                  + "with CREATEROLE that owns the ledger's database (docs/operations.md, \"Who may do what\"). "
                                  + "Nothing was changed.")
        }
    }

    static func recordedVersion(on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let exists = try await connection.watchedQuery("SELECT to_regclass('ledger.schema_version') IS NOT NULL", logger: logger)
        var present = false
        for try await value in exists.decode(Bool.self) { present = value }
        guard present else { return nil }
        let rows = try await connection.watchedQuery("SELECT max(version) FROM ledger.schema_version", logger: logger)
        for try await value in rows.decode(Int?.self) { return value }
        return nil
    }
}
