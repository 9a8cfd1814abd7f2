import Foundation
import LedgerPostgres
import Logging
import PostgresNIO

/// The bench's copy of what a rebuild step does around the fold statements: create and empty the
/// session's `fold_input`, fill it with a range, count it and ANALYZE it. LedgerPostgres keeps
/// these steps internal (`FoldInput`), so the breakdown repeats them here; the SQL comes from the
/// checkout (``FoldInputSQL``, checked against the build), the ANALYZE below mirrors
/// `FoldInput.fill` and must follow it when that changes.
enum FoldSteps {
    /// What `FoldInput.fill` runs once a range holds ``analyzeThreshold`` rows or more.
    static let analyzeSQL = "ANALYZE pg_temp.fold_input (type, subject, ref, position)"
    /// From how many rows `FoldInput.fill` analyzes the staged range.
    static let analyzeThreshold = 2_000

    /// The scratch schema the breakdown folds `projection` into.
    static func scratchSchema(_ projection: ProjectionDefinition) -> String { "bench_" + projection.name }

    /// Creates every projection's tables afresh in its scratch schema (one transaction).
    static func createScratchSchemas(_ projections: [ProjectionDefinition], on connection: PostgresConnection,
                                     logger: Logger) async throws {
        try await transaction(on: connection, logger: logger) {
            try await BenchSQL.execute("SET LOCAL client_min_messages = warning", on: connection, logger: logger)
            for projection in projections {
                let schema = scratchSchema(projection)
                try await BenchSQL.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE", on: connection, logger: logger)
                try await BenchSQL.execute("CREATE SCHEMA \(schema)", on: connection, logger: logger)
                try await BenchSQL.execute("SET LOCAL search_path = \(schema), pg_temp", on: connection, logger: logger)
                for statement in projection.tableStatements {
                    try await BenchSQL.execute(statement, on: connection, logger: logger)
                }
            }
        }
    }

    /// Creates every projection's reader indexes in its full scratch schema, as a rebuild does
    /// before its swap (one transaction); returns seconds.
    static func createReaderIndexes(_ projections: [ProjectionDefinition], on connection: PostgresConnection,
                                    logger: Logger) async throws -> Double {
        let watch = Stopwatch()
        try await transaction(on: connection, logger: logger) {
            try await BenchSQL.execute("SET LOCAL maintenance_work_mem = '\(ProjectionDefinition.readerIndexMemory)'", on: connection, logger: logger)
            for projection in projections {
                try await BenchSQL.execute("SET LOCAL search_path = \(scratchSchema(projection)), pg_temp", on: connection, logger: logger)
                for statement in projection.indexStatements {
                    try await BenchSQL.execute(statement, on: connection, logger: logger)
                }
            }
        }
        return watch.elapsedSeconds
    }

    /// Drops the scratch schemas.
    static func dropScratchSchemas(_ projections: [ProjectionDefinition], on connection: PostgresConnection,
                                   logger: Logger) async throws {
        for projection in projections {
            try await BenchSQL.execute("DROP SCHEMA IF EXISTS \(scratchSchema(projection)) CASCADE", on: connection, logger: logger)
        }
    }

    /// What `FoldInput.reset` does: fold_input created if missing, and emptied. Returns seconds.
    static func reset(_ connection: PostgresConnection, sql: FoldInputSQL, logger: Logger) async throws -> Double {
        var seconds = try await BenchSQL.execute("SET LOCAL search_path = pg_temp", on: connection, logger: logger)
        seconds += try await BenchSQL.execute("SET LOCAL client_min_messages = warning", on: connection, logger: logger)
        seconds += try await BenchSQL.execute("SET LOCAL work_mem = '\(FoldInput.workMemory)'", on: connection, logger: logger)
        seconds += try await BenchSQL.execute(sql.table, on: connection, logger: logger)
        seconds += try await BenchSQL.execute("TRUNCATE pg_temp.fold_input", on: connection, logger: logger)
        return seconds
    }

    /// The fill with the binds a rebuild gives it: the range, the types, no subject or time filter.
    static func fill(_ sql: FoldInputSQL, log: String, after: Int64, through: Int64, types: [String]) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 7)
        binds.append(log)
        binds.append(after)
        binds.append(through)
        binds.append(types)
        binds.append(String?.none)
        binds.append(Date?.none)
        binds.append(Date?.none)
        return PostgresQuery(unsafeSQL: sql.fill, binds: binds)
    }

    /// What `FoldInput.fill` does after the insert: count the rows and, from the threshold on,
    /// ANALYZE them. Returns the count.
    static func countAndAnalyze(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let count = Int(try await BenchSQL.integer("SELECT count(*) FROM pg_temp.fold_input", on: connection, logger: logger))
        if count >= analyzeThreshold {
            try await BenchSQL.execute(analyzeSQL, on: connection, logger: logger)
        }
        return count
    }

    /// Points unqualified names at `projection`'s scratch schema (then pg_temp). Returns seconds.
    static func useScratchSchema(_ projection: ProjectionDefinition, on connection: PostgresConnection,
                                 logger: Logger) async throws -> Double {
        try await BenchSQL.execute("SET LOCAL search_path = \(scratchSchema(projection)), pg_temp", on: connection, logger: logger)
    }

    /// Runs `body` between BEGIN and COMMIT (or ROLLBACK with `rollBack`, or when it throws).
    /// Returns the seconds BEGIN and COMMIT took.
    @discardableResult
    static func transaction(on connection: PostgresConnection, rollBack: Bool = false, logger: Logger,
                            _ body: () async throws -> Void) async throws -> Double {
        var seconds = try await BenchSQL.execute("BEGIN", on: connection, logger: logger)
        do {
            try await body()
            seconds += try await BenchSQL.execute(rollBack ? "ROLLBACK" : "COMMIT", on: connection, logger: logger)
            return seconds
        } catch {
            _ = try? await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }

    /// `3. UPDATE subjects — The erasure: the first …`: a fold statement's number in fold.sql, what
    /// it writes, and the first line of the comment just above it.
    static func label(_ statement: String, _ number: Int) -> String {
        let lines = statement.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let codeIndex = lines.firstIndex(where: { !$0.isEmpty && !$0.hasPrefix("--") }) else { return "\(number)." }
        let words = lines[codeIndex].split(separator: " ")
        let target = words.first == "INSERT" || words.first == "DELETE" ? words.prefix(3) : words.prefix(2)
        var commentStart = codeIndex
        while commentStart > 0, lines[commentStart - 1].hasPrefix("--") { commentStart -= 1 }
        var label = "\(number). " + target.joined(separator: " ")
        if commentStart < codeIndex {
            let comment = lines[commentStart].dropFirst(2).trimmingCharacters(in: .whitespaces)
            label += " — " + (comment.count > 48 ? String(comment.prefix(47)) + "…" : comment)
        }
        return label
    }
}
