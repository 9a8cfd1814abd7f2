import Foundation
import LedgerPostgres
import Logging
import PostgresNIO

/// Applies a SQL file to the benchmark's database after the migration, so that a proposed change
/// to the schema (a rewritten function, a dropped constraint) can be measured on exactly the same
/// workload as the shipped schema.
enum SchemaExperiment {
    /// Runs every statement of the file at `path` in one transaction on one connection.
    static func apply(file path: String, on client: LedgerPool, logger: Logger) async throws {
        let script: String
        do {
            script = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw BenchError("cannot read \(path): \(error.localizedDescription)")
        }
        try await client.withConnection { connection in
            _ = try await connection.query("BEGIN", logger: logger)
            do {
                for statement in SQLScript.statements(in: script) {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query("COMMIT", logger: logger)
            } catch let error as PSQLError {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw BenchError("\(path): \(error.serverInfo?[.message] ?? String(reflecting: error))")
            }
        }
    }
}
