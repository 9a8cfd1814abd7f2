import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Where a projection's tables live and how they are made: the live schema (named like the
/// projection), a build schema for rebuilds, and temporary tables for time travel.
enum ProjectionSchema {
    /// `checkpoints` and `definition`, created in every projection schema.
    static let bookkeepingSQL = EmbeddedProjections.files["common/bookkeeping.sql"] ?? ""
    /// The role that owns the projections' schemas and alone may write them: every fold, build and
    /// swap acts as it (``actAsProjector(on:logger:)``), and no other role, the ledger's owner
    /// included, holds a write privilege on a projection table (decision 0058). On a server of the
    /// user's own, `project run --follow` logs in as it (decision 0070).
    static let projector = "consent_ledger_projector"

    /// Makes the rest of the current transaction act as ``projector``.
    static func actAsProjector(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL ROLE \(projector)"), logger: logger)
    }
    /// The roles that may read the projections.
    static let readers = ["consent_ledger_app", "consent_ledger_auditor"]

    /// A quoted identifier.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a schema of that name exists.
    static func exists(_ schema: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        for try await found in try await connection.watchedQuery(
            "SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = \(schema))", logger: logger).decode(Bool.self) {
            return found
        }
        return false
    }

    /// Creates `schema` afresh (dropping an earlier one) with `definition`'s tables and the
    /// bookkeeping tables, owned by the projector role and readable by the readers. One transaction.
    /// With `readerIndexes` false (a rebuild's build schema) the indexes only readers use are left
    /// for ``createReaderIndexes(_:schema:on:logger:)`` once the tables are full.
    static func create(_ definition: ProjectionDefinition, schema: String, readerIndexes: Bool = true,
                       on connection: PostgresConnection, logger: Logger) async throws {
        let name = quoted(schema)
        try await connection.inTransaction(logger: logger) { connection in
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL client_min_messages = warning"), logger: logger)
            try await actAsProjector(on: connection, logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(name) CASCADE"), logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(name) AUTHORIZATION \(projector)"), logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = \(name), pg_temp"), logger: logger)
            let tables = readerIndexes ? definition.schemaStatements : definition.tableStatements
            for statement in tables + SQLScript.statements(in: bookkeepingSQL) {
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.watchedQuery(
                "INSERT INTO definition (projection, definition_hash, software) VALUES (\(definition.name), \(definition.definitionHash), \(LedgerSoftware.name))",
                logger: logger)
            let readers = Self.readers.joined(separator: ", ")
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "GRANT USAGE ON SCHEMA \(name) TO \(readers)"), logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "GRANT SELECT ON ALL TABLES IN SCHEMA \(name) TO \(readers)"), logger: logger)
        }
    }

    /// Creates `definition`'s reader indexes (`indexes.sql`) in `schema`, as the projector, in one
    /// transaction: after a rebuild's last range, before its swap.
    static func createReaderIndexes(_ definition: ProjectionDefinition, schema: String, on connection: PostgresConnection,
                                    logger: Logger) async throws {
        guard !definition.indexStatements.isEmpty else { return }
        try await connection.inTransaction(logger: logger) { connection in
            try await actAsProjector(on: connection, logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = \(quoted(schema)), pg_temp"), logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL maintenance_work_mem = '\(ProjectionDefinition.readerIndexMemory)'"), logger: logger)
            for statement in definition.indexStatements {
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    /// Gathers the planner's statistics of the projection's tables in `schema` (as its owner).
    static func analyze(_ definition: ProjectionDefinition, schema: String, on connection: PostgresConnection,
                        logger: Logger) async throws {
        let tables = try await ProjectionRows.tableNames(definition, schema: schema, on: connection, logger: logger)
        try await connection.inTransaction(logger: logger) { connection in
            try await actAsProjector(on: connection, logger: logger)
            for table in tables {
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: "ANALYZE \(quoted(schema)).\(quoted(table))"), logger: logger)
            }
        }
    }

    /// Puts a rebuilt projection in place of the live one, in the caller's transaction (which must
    /// hold the projection's fold lock and act as the projector).
    ///
    /// The live schema itself is kept: its tables and views are dropped and the build schema's are
    /// moved into it (`ALTER … SET SCHEMA` takes their indexes, constraints, owned sequences and
    /// grants along), then the empty build schema goes. A reader names `schema.table`; PostgreSQL
    /// looks up the schema, then the table in it. Had the schema been dropped and another renamed
    /// to its name, a reader that looked up the old schema just before the commit and the table just
    /// after would find no such table (42P01). With the schema kept, the table lookup finds either
    /// the old table (and waits for the swap's lock, then looks again) or the new one.
    static func swapIn(_ definition: ProjectionDefinition, on connection: PostgresConnection, logger: Logger) async throws {
        let live = quoted(definition.name), build = quoted(definition.buildSchema)
        guard try await exists(definition.name, on: connection, logger: logger) else {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "ALTER SCHEMA \(build) RENAME TO \(live)"), logger: logger)
            return
        }
        for (name, kind) in try await relations(in: definition.name, on: connection, logger: logger) {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP \(kind) IF EXISTS \(live).\(quoted(name)) CASCADE"), logger: logger)
        }
        for (name, kind) in try await relations(in: definition.buildSchema, on: connection, logger: logger) {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "ALTER \(kind) \(build).\(quoted(name)) SET SCHEMA \(live)"), logger: logger)
        }
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP SCHEMA \(build)"), logger: logger)
    }

    /// Takes every live table and view of `definitions` in ACCESS EXCLUSIVE mode, in one `LOCK`
    /// statement in name order, in the caller's transaction: the swap's only wait for readers.
    ///
    /// Taken table by table as each projection was swapped, the swap could hold one projection's
    /// tables for a while (its catalogue queries, a slow machine) before it waited for a reader
    /// holding another's. A reader that began waiting for the first in that while reached
    /// `deadlock_timeout` before the swap reached its `lock_timeout`, and PostgreSQL failed the
    /// reader. With all the locks asked for at once, the swap waits only with nothing or with
    /// locks taken microseconds before, so its shorter `lock_timeout` ends the wait first.
    ///
    /// `LOCK` on a view locks the relations it reads as well. A projection's views read its own
    /// tables; one that read others (the ledger's events) is left out rather than block appends.
    static func lockLive(_ definitions: [ProjectionDefinition], on connection: PostgresConnection, logger: Logger) async throws {
        let schemas = definitions.map(\.name)
        var names: [String] = []
        for try await (schema, name) in try await connection.watchedQuery("""
            SELECT n.nspname::text, c.relname::text
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ANY(\(schemas)) AND c.relkind IN ('r', 'p', 'v')
               AND NOT EXISTS (  -- a view that reads beyond these schemas (LOCK would lock that too)
                   SELECT FROM pg_rewrite r
                     JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
                                     AND d.refclassid = 'pg_class'::regclass
                     JOIN pg_class used ON used.oid = d.refobjid
                     JOIN pg_namespace un ON un.oid = used.relnamespace
                    WHERE r.ev_class = c.oid AND un.nspname <> ALL(\(schemas)))
             ORDER BY n.nspname, c.relname
            """, logger: logger).decode((String, String).self) {
            names.append("\(quoted(schema)).\(quoted(name))")
        }
        guard !names.isEmpty else { return }
        try await connection.watchedQuery(
            PostgresQuery(unsafeSQL: "LOCK TABLE \(names.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE"), logger: logger)
    }

    /// The relations of `schema` that move on their own (views first, then tables and sequences
    /// no column owns), with the SQL word for their kind.
    private static func relations(in schema: String, on connection: PostgresConnection,
                                  logger: Logger) async throws -> [(String, String)] {
        var found: [(String, String)] = []
        for try await (name, kind) in try await connection.watchedQuery("""
            SELECT c.relname::text, CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                                                   WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END
              FROM pg_class c
             WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = \(schema))
               AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
               AND NOT (c.relkind = 'S' AND EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
             ORDER BY c.relkind NOT IN ('v', 'm'), c.relname
            """, logger: logger).decode((String, String).self) {
            found.append((name, kind))
        }
        return found
    }

    /// Creates `definitions`' tables as temporary tables of the current transaction (search_path
    /// must be `pg_temp`). Their table names must not clash.
    static func createTemporary(_ definitions: [ProjectionDefinition], on connection: PostgresConnection,
                                logger: Logger) async throws {
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path = pg_temp"), logger: logger)
        for definition in definitions {
            for statement in definition.schemaStatements {
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    /// The definition hash a schema was built with, or nil when it has none.
    static func builtHash(_ schema: String, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        guard try await exists(schema, on: connection, logger: logger) else { return nil }
        let rows = try await connection.watchedQuery(
            PostgresQuery(unsafeSQL: "SELECT definition_hash FROM \(quoted(schema)).definition LIMIT 1"), logger: logger)
        for try await hash in rows.decode(String.self) { return hash }
        return nil
    }
}
