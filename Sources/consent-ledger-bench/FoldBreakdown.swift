import Foundation
import LedgerPostgres
import Logging
import PostgresNIO

/// Where a rebuild's time goes: the bench runs each projection's build itself, over the same
/// chunks as ``ProjectionRebuilder`` and with the same SQL (the fill of `fold_input`, its ANALYZE,
/// then `fold.sql` statement by statement), into a scratch schema, and times every part. With
/// `explain`, the last chunk is first run under `EXPLAIN (ANALYZE, BUFFERS)` and rolled back.
///
/// It leaves out the runner's bookkeeping (checkpoint rows, head look-ups), which is a few small
/// statements per chunk; the rebuild's own time, beside it in the report, includes them.
enum FoldBreakdown {
    /// The schema the breakdown builds into (dropped after each projection).
    static let schema = "bench_breakdown"

    /// One statement of `fold.sql` and its time summed over the chunks.
    struct StatementTime: Sendable {
        /// `3. UPDATE subjects s`: its number in fold.sql and the start of its first line of code.
        var label: String
        var seconds: Double
    }

    /// One projection's times, summed over every chunk of the log.
    struct Profile: Sendable {
        var projection: String
        var chunks = 0
        /// Events of the types it reads (rows put in fold_input).
        var events = 0
        /// BEGIN, creating (if needed) and emptying fold_input, COMMIT.
        var other = 0.0
        /// The `INSERT INTO fold_input SELECT … FROM ledger.events` (scan, JSON parse, upcast).
        var fill = 0.0
        /// Counting fold_input's rows and, at 2,000 or more, `ANALYZE pg_temp.fold_input`.
        var analyze = 0.0
        /// Each fold statement.
        var statements: [StatementTime]
        /// The EXPLAIN (ANALYZE, BUFFERS) output of the last chunk, when asked for.
        var plans = ""

        /// All fold statements together.
        var fold: Double { statements.reduce(0) { $0 + $1.seconds } }
        /// Everything timed.
        var total: Double { other + fill + analyze + fold }
    }

    /// Profiles every projection over positions (0, `head`] of `log` in steps of `chunkSize`.
    static func measure(client: PostgresClient, log: String, head: Int64, chunkSize: Int64, sql: FoldInputSQL,
                        explain: Bool, logger: Logger) async throws -> [Profile] {
        var profiles: [Profile] = []
        for definition in ProjectionDefinition.all {
            let profile = try await client.withConnection { connection in
                try await measure(definition, connection: connection, log: log, head: head, chunkSize: chunkSize,
                                  sql: sql, explain: explain, logger: logger)
            }
            Progress.note("breakdown: \(definition.name): fill \(String(format: "%.2f", profile.fill)) s, "
                + "analyze \(String(format: "%.2f", profile.analyze)) s, fold \(String(format: "%.2f", profile.fold)) s, "
                + "other \(String(format: "%.2f", profile.other)) s")
            profiles.append(profile)
        }
        return profiles
    }

    /// One projection, on one connection (fold_input is the session's).
    private static func measure(_ definition: ProjectionDefinition, connection: PostgresConnection, log: String, head: Int64,
                                chunkSize: Int64, sql: FoldInputSQL, explain: Bool, logger: Logger) async throws -> Profile {
        try await transaction(on: connection, logger: logger) {
            try await BenchSQL.execute("SET LOCAL client_min_messages = warning", on: connection, logger: logger)
            try await BenchSQL.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE", on: connection, logger: logger)
            try await BenchSQL.execute("CREATE SCHEMA \(schema)", on: connection, logger: logger)
            try await BenchSQL.execute("SET LOCAL search_path = \(schema), pg_temp", on: connection, logger: logger)
            for statement in definition.tableStatements {
                try await BenchSQL.execute(statement, on: connection, logger: logger)
            }
        }
        var profile = Profile(projection: definition.name,
                              statements: definition.foldStatements.enumerated().map { StatementTime(label: label($1, $0 + 1), seconds: 0) })
        var after: Int64 = 0
        while after < head {
            let through = min(head, after + chunkSize)
            if explain, through == head {
                profile.plans = try await plans(definition, connection: connection, log: log, after: after, through: through,
                                                sql: sql, logger: logger)
            }
            try await step(definition, connection: connection, log: log, after: after, through: through, sql: sql,
                           into: &profile, logger: logger)
            after = through
        }
        try await BenchSQL.execute("DROP SCHEMA \(schema) CASCADE", on: connection, logger: logger)
        return profile
    }

    /// One chunk, timed part by part and committed, as a rebuild step does it.
    private static func step(_ definition: ProjectionDefinition, connection: PostgresConnection, log: String, after: Int64,
                             through: Int64, sql: FoldInputSQL, into profile: inout Profile, logger: Logger) async throws {
        profile.other += try await BenchSQL.execute("BEGIN", on: connection, logger: logger)
        do {
            profile.other += try await reset(connection, sql: sql, logger: logger)
            profile.fill += try await BenchSQL.execute(fill(sql, log: log, after: after, through: through, types: definition.reads),
                                                       on: connection, logger: logger)
            let watch = Stopwatch()
            let count = try await countAndAnalyze(connection, logger: logger)
            profile.analyze += watch.elapsedSeconds
            profile.events += count
            profile.chunks += 1
            if count > 0 {
                for (index, statement) in definition.foldStatements.enumerated() {
                    profile.statements[index].seconds += try await BenchSQL.execute(statement, on: connection, logger: logger)
                }
            }
            profile.other += try await BenchSQL.execute("COMMIT", on: connection, logger: logger)
        } catch {
            try? await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }

    /// One chunk under `EXPLAIN (ANALYZE, BUFFERS)`, rolled back: the fill's plan and each fold
    /// statement's, as text.
    private static func plans(_ definition: ProjectionDefinition, connection: PostgresConnection, log: String, after: Int64,
                              through: Int64, sql: FoldInputSQL, logger: Logger) async throws -> String {
        var out = "=== \(definition.name): positions (\(after), \(through)] of log \(log)\n"
        func explain(_ title: String, _ query: PostgresQuery) async throws {
            let explained = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, BUFFERS) " + query.sql, binds: query.binds)
            out += "--- \(title)\n" + (try await BenchSQL.texts(explained, on: connection, logger: logger)).joined(separator: "\n") + "\n"
        }
        try await BenchSQL.execute("BEGIN", on: connection, logger: logger)
        do {
            _ = try await reset(connection, sql: sql, logger: logger)
            try await explain("fill fold_input", fill(sql, log: log, after: after, through: through, types: definition.reads))
            let count = try await countAndAnalyze(connection, logger: logger)
            out += "--- fold_input holds \(count) events (ANALYZEd: \(count >= 2_000))\n"
            for (index, statement) in definition.foldStatements.enumerated() {
                try await explain(label(statement, index + 1), PostgresQuery(unsafeSQL: statement))
            }
            try await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
        } catch {
            try? await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
            throw error
        }
        return out
    }

    /// What `FoldInput.reset` does: search path, fold_input created if missing, emptied.
    private static func reset(_ connection: PostgresConnection, sql: FoldInputSQL, logger: Logger) async throws -> Double {
        var seconds = try await BenchSQL.execute("SET LOCAL search_path = \(schema), pg_temp", on: connection, logger: logger)
        seconds += try await BenchSQL.execute("SET LOCAL client_min_messages = warning", on: connection, logger: logger)
        seconds += try await BenchSQL.execute(sql.table, on: connection, logger: logger)
        seconds += try await BenchSQL.execute("TRUNCATE pg_temp.fold_input", on: connection, logger: logger)
        return seconds
    }

    /// The fill with the binds `FoldInput.fill` gives it: no subject or time filter.
    private static func fill(_ sql: FoldInputSQL, log: String, after: Int64, through: Int64, types: [String]) -> PostgresQuery {
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

    /// What `FoldInput.fill` does after the insert: count the rows, and ANALYZE from 2,000 rows.
    private static func countAndAnalyze(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let count = Int(try await BenchSQL.integer("SELECT count(*) FROM pg_temp.fold_input", on: connection, logger: logger))
        if count >= 2_000 {
            try await BenchSQL.execute("ANALYZE pg_temp.fold_input", on: connection, logger: logger)
        }
        return count
    }

    /// Runs `body` between BEGIN and COMMIT (ROLLBACK when it throws).
    private static func transaction(on connection: PostgresConnection, logger: Logger,
                                    _ body: () async throws -> Void) async throws {
        try await BenchSQL.execute("BEGIN", on: connection, logger: logger)
        do {
            try await body()
            try await BenchSQL.execute("COMMIT", on: connection, logger: logger)
        } catch {
            try? await BenchSQL.execute("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }

    /// `3. UPDATE subjects — The erasure: the first …`: the statement's number in fold.sql, what it
    /// writes, and the first line of the comment just above it.
    static func label(_ statement: String, _ number: Int) -> String {
        let lines = statement.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
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
