import Foundation
import Logging
import PostgresNIO

/// The session-private table `fold_input` that every fold reads (projections/common/), and how it
/// is filled with a range of events.
public enum FoldInput {
    /// `CREATE TEMPORARY TABLE IF NOT EXISTS fold_input …`.
    static let tableSQL = EmbeddedProjections.files["common/fold-input.sql"] ?? ""
    /// The parameterised `INSERT INTO fold_input SELECT … FROM ledger.events …`.
    static let fillSQL = EmbeddedProjections.files["common/fill-fold-input.sql"] ?? ""

    /// Which events of a range to take, beyond their types: for time travel and replay.
    public struct Filter: Sendable, Equatable {
        /// Only events about this subject (and events about no subject, such as a declared change).
        public var subject: String?
        /// Only events the ledger recorded at or before this instant.
        public var recordedBy: Date?
        /// Only events that occurred (device clock) at or before this instant.
        public var occurredBy: Date?

        /// No filter: every event of the range.
        public static let none = Filter()

        /// Creates a filter.
        public init(subject: String? = nil, recordedBy: Date? = nil, occurredBy: Date? = nil) {
            self.subject = subject
            self.recordedBy = recordedBy
            self.occurredBy = occurredBy
        }
    }

    /// `work_mem` for a fold's transaction: the sorts of a range of 50,000 events (`DISTINCT ON`,
    /// window functions) fit in memory, where the server's default (4 MB) spills them to disk.
    public static let workMemory = "64MB"

    /// Creates `fold_input` in the session if needed and empties it; sets the transaction's
    /// ``workMemory``.
    static func reset(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL client_min_messages = warning"), logger: logger)
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL work_mem = '\(workMemory)'"), logger: logger)
        var made = false
        for try await missing in try await connection.watchedQuery(
            "SELECT to_regclass('pg_temp.fold_input') IS NULL", logger: logger).decode(Bool.self) { made = missing }
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: tableSQL), logger: logger)
        if made {
            // The table lives as long as the session and only the session sees it, while the role
            // acting in it changes: folds act as the projector, time travel as the session's own
            // role (decision 0058). Whichever made it, each may use it.
            try await connection.watchedQuery("GRANT ALL ON pg_temp.fold_input TO PUBLIC", logger: logger)
        }
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "TRUNCATE pg_temp.fold_input"), logger: logger)
    }

    /// Fills the emptied `fold_input` with the events of `log` at positions (`after`, `through`]
    /// whose type is in `types` and that pass `filter`; returns how many. Must run inside a
    /// transaction, after ``reset(on:logger:)``.
    @discardableResult
    static func fill(on connection: PostgresConnection, log: String, after: Int64, through: Int64, types: [String],
                     filter: Filter = .none, logger: Logger) async throws -> Int {
        try await insert(on: connection, log: log, after: after, through: through, types: types, filter: filter, logger: logger)
        return try await counted(on: connection, logger: logger)
    }

    /// Fills `fold_input` from a rebuild's staged range (``RebuildStage``): its rows of `types`,
    /// copied as they are (parsed once, by the stager). Returns how many, as ``fill`` does.
    static func take(from table: String, types: [String], on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.watchedQuery(PostgresQuery(
            unsafeSQL: "INSERT INTO pg_temp.fold_input SELECT * FROM \(table) WHERE type = ANY ($1::text[])",
            binds: { var binds = PostgresBindings(capacity: 1); binds.append(types); return binds }()), logger: logger)
        return try await counted(on: connection, logger: logger)
    }

    /// The fill itself (`common/fill-fold-input.sql`), with its binds.
    static func insert(on connection: PostgresConnection, log: String, after: Int64, through: Int64, types: [String],
                       filter: Filter = .none, logger: Logger) async throws {
        var binds = PostgresBindings(capacity: 7)
        binds.append(log)
        binds.append(after)
        binds.append(through)
        binds.append(types)
        binds.append(filter.subject)
        binds.append(filter.recordedBy)
        binds.append(filter.occurredBy)
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: fillSQL, binds: binds), logger: logger)
    }

    /// How many rows `fold_input` holds.
    static func count(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count = 0
        for try await value in try await connection.watchedQuery("SELECT count(*) FROM pg_temp.fold_input", logger: logger)
            .decode(Int.self) { count = value }
        return count
    }

    /// Counts the filled `fold_input` and, when it is large (a rebuild's range), analyzes it.
    private static func counted(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let count = try await count(on: connection, logger: logger)
        if count >= 2_000 {
            // Large ranges (rebuilds): give the planner the table's real size, and the spread of the
            // columns the statements group and join on (not the jsonb ones: costly, and unused).
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "ANALYZE pg_temp.fold_input (type, subject, ref, position)"),
                                       logger: logger)
        }
        return count
    }

    /// Runs `definition`'s fold statements over what `fold_input` holds, in the schemas of the
    /// session's current `search_path`.
    static func fold(_ definition: ProjectionDefinition, on connection: PostgresConnection, logger: Logger) async throws {
        for statement in definition.foldStatements {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }
}
