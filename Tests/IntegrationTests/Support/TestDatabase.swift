import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// A fresh, migrated database in the test cluster, one per test, so tests run in parallel
/// without seeing each other's rows.
struct TestDatabase: Sendable {
    /// The database's name.
    let name: String
    /// The cluster, as a target.
    let target: DatabaseTarget

    /// Creates and migrates a new database.
    static func create() async throws -> TestDatabase {
        let cluster = try await TestCluster.shared.running()
        let target = DatabaseTarget.embedded(cluster)
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try await LedgerDatabase.withRunningPool(target.settings(role: .administrator, database: "postgres")) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        let database = TestDatabase(name: String(name), target: target)
        _ = try await database.as(.administrator) { client in try await Migrator(pool: client).migrate() }
        return database
    }

    /// Runs `body` with a client connected to this database as `role`.
    @discardableResult
    func `as`<Result: Sendable>(_ role: DatabaseTarget.Role, _ body: (LedgerPool) async throws -> Result) async throws -> Result {
        try await LedgerDatabase.withRunningPool(target.settings(role: role, database: name), body)
    }

    /// The settings for `role` on this database.
    func settings(_ role: DatabaseTarget.Role) -> ConnectionSettings {
        target.settings(role: role, database: name)
    }
}

extension LedgerPool {
    /// Runs SQL that returns one integer (count, max…); a NULL (the max of no rows) is 0.
    /// - Throws: when the query returns no row at all, so a test cannot pass on a query that
    ///   matched nothing.
    func int(_ query: PostgresQuery) async throws -> Int64 {
        let rows = try await self.query(query)
        for try await value in rows.decode(Int64?.self) { return value ?? 0 }
        struct NoRow: Error, CustomStringConvertible { var description: String { "the query returned no row" } }
        throw NoRow()
    }

    /// Runs SQL that returns one text value.
    /// - Throws: when the query returns no row or a NULL.
    func string(_ query: PostgresQuery) async throws -> String {
        let rows = try await self.query(query)
        for try await value in rows.decode(String?.self) {
            if let value { return value }
        }
        struct NoText: Error, CustomStringConvertible { var description: String { "the query returned no row or a NULL" } }
        throw NoText()
    }

    /// Runs SQL and returns the SQLSTATE it failed with, or nil if it succeeded.
    func sqlState(_ query: PostgresQuery) async -> String? {
        do {
            _ = try await raw(query)
            return nil
        } catch let error as PSQLError {
            return error.serverInfo?[.sqlState] ?? "no-sqlstate"
        } catch {
            return "not-a-psql-error"
        }
    }

    /// Runs `query` as psql would, past the ledger's error boundary: a refusal comes back as
    /// PostgresNIO's `PSQLError` with its SQLSTATE, not translated into a `LedgerError`.
    func raw(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.withConnection { connection in
            try await connection.query(query, logger: logger).collect()
        }
    }
}
