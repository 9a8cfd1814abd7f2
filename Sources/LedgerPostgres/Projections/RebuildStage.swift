import Foundation
import Logging
import PostgresNIO

/// A rebuild's shared staging (decision 0044): one connection stages each range of the log once,
/// for every projection being rebuilt (the types any of them reads), into an unlogged table of a
/// schema of the rebuild's own, while the groups fold the ranges staged before it. Each group copies
/// the rows of the types its members read into its session's `fold_input`; the records are read and
/// parsed once, and on another core than the folds.
///
/// The schema is `projections__stage_<pid>` (the backend of the rebuild's main connection), so
/// two rebuilds of different projections do not meet; a schema left by a rebuild that was killed
/// is dropped by the next one, once its backend is gone. Unlogged tables are not written to the WAL
/// (nothing here needs to survive a crash) and, unlike temporary tables, other sessions can read them.
struct RebuildStage: Sendable {
    /// One range of one log, in the order the ranges are staged and folded.
    struct Range: Sendable, Equatable {
        /// Its place in the whole rebuild, from 0.
        var index: Int
        var log: String
        /// Positions (`after`, `through`].
        var after: Int64
        var through: Int64
    }

    /// The schema's name.
    let schema: String
    var logger: Logger

    /// How many ranges the stager may be ahead of the slowest group (each a table of one range).
    static let lookahead = 2

    /// The prefix of every stage schema's name.
    static let prefix = "projections__stage_"

    /// Every log's positions (0, head] cut into ranges of `chunkSize`, log after log.
    static func ranges(heads: [(String, Int64)], chunkSize: Int64) -> [Range] {
        var ranges: [Range] = []
        for (log, head) in heads {
            var position: Int64 = 0
            while position < head {
                let through = min(head, position + chunkSize)
                ranges.append(Range(index: ranges.count, log: log, after: position, through: through))
                position = through
            }
        }
        return ranges
    }

    /// Creates the stage schema of the session on `connection` (owned by the projector role),
    /// after dropping those left by rebuilds whose backend is gone.
    static func create(on connection: PostgresConnection, logger: Logger) async throws -> RebuildStage {
        var pid = 0
        for try await value in try await connection.watchedQuery("SELECT pg_backend_pid()", logger: logger).decode(Int.self) {
            pid = value
        }
        let stage = RebuildStage(schema: prefix + String(pid), logger: logger)
        try await connection.inTransaction(logger: logger) { connection in
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL client_min_messages = warning"), logger: logger)
            try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
            var left: [String] = []
            for try await name in try await connection.watchedQuery("""
                SELECT nspname::text FROM pg_namespace
                 WHERE starts_with(nspname, \(prefix))
                   AND NOT EXISTS (SELECT FROM pg_stat_activity a WHERE \(prefix) || a.pid = nspname)
                """, logger: logger).decode(String.self) { left.append(name) }
            for name in left + [stage.schema] {
                try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(ProjectionSchema.quoted(name)) CASCADE"),
                                                  logger: logger)
            }
            try await connection.watchedQuery(PostgresQuery(unsafeSQL:
                "CREATE SCHEMA \(ProjectionSchema.quoted(stage.schema)) AUTHORIZATION \(ProjectionSchema.projector)"), logger: logger)
        }
        return stage
    }

    /// Drops the stage schema and every range still in it.
    func drop(on connection: PostgresConnection) async throws {
        try await connection.inTransaction(logger: logger) { connection in
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL client_min_messages = warning"), logger: logger)
            try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(ProjectionSchema.quoted(schema)) CASCADE"),
                                              logger: logger)
        }
    }

    /// The table holding `range`'s rows.
    func table(_ range: Range) -> String { ProjectionSchema.quoted(schema) + ".range_\(range.index)" }

    /// Stages `range` (the events of `types`) into its table, committed; returns how many events,
    /// or nil when the staging failed on what it was given (an event the fold input cannot take:
    /// ``ProjectionStall/foldFailure(_:)``), and nothing was kept.
    func stage(_ range: Range, types: [String], on connection: PostgresConnection) async throws -> Int? {
        try await connection.inTransaction(logger: logger) { connection in
            try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
            try await FoldInput.reset(on: connection, logger: logger)
            do {
                try await connection.watchedQuery("SAVEPOINT staging", logger: logger)
                try await FoldInput.insert(on: connection, log: range.log, after: range.after, through: range.through,
                                           types: types, logger: logger)
                try await connection.watchedQuery("RELEASE SAVEPOINT staging", logger: logger)
            } catch where ProjectionStall.foldFailure(error) != nil {
                try await connection.watchedQuery("ROLLBACK TO SAVEPOINT staging", logger: logger)
                return nil
            }
            // As the projector, as the build schemas' folds read it.
            try await connection.watchedQuery(PostgresQuery(unsafeSQL:
                "CREATE UNLOGGED TABLE \(table(range)) AS SELECT * FROM pg_temp.fold_input"), logger: logger)
            return try await FoldInput.count(on: connection, logger: logger)
        }
    }

    /// Drops `range`'s table, once every group has taken it.
    func discard(_ range: Range, on connection: PostgresConnection) async throws {
        try await connection.inTransaction(logger: logger) { connection in
            try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table(range))"), logger: logger)
        }
    }
}

/// Which ranges are staged, which groups are still to take them, and who waits for what: the
/// stager and the groups of one rebuild meet here.
actor StageBoard {
    /// What became of a range's staging.
    enum Staging: Sendable {
        /// Staged: its table is there to take.
        case staged
        /// The staging failed on an event of that range's log (or an earlier range of it did).
        case failed
    }

    private var outcomes: [Int: Staging] = [:]
    /// Per group, the index of the next range it has not finished with.
    private var next: [Int]
    private var waitingFor: [Int: [CheckedContinuation<Staging, any Error>]] = [:]
    private var roomWaiter: (index: Int, continuation: CheckedContinuation<Void, any Error>)?
    private var abandoned: (any Error)?

    init(groups: Int) {
        self.next = Array(repeating: 0, count: groups)
    }

    /// The ranges before this one have been taken by every group.
    private var taken: Int { next.min() ?? 0 }

    /// The stager: waits until staging range `index` keeps it within ``RebuildStage/lookahead``
    /// ranges of the slowest group.
    func roomFor(_ index: Int) async throws {
        if let abandoned { throw abandoned }
        guard index - taken >= RebuildStage.lookahead else { return }
        try await withCheckedThrowingContinuation { continuation in roomWaiter = (index, continuation) }
    }

    /// The stager: range `index` is staged (or failed).
    func record(_ index: Int, _ staging: Staging) {
        outcomes[index] = staging
        for waiter in waitingFor.removeValue(forKey: index) ?? [] { waiter.resume(returning: staging) }
    }

    /// A group: waits until range `index` is staged.
    func staging(of index: Int) async throws -> Staging {
        if let abandoned { throw abandoned }
        if let outcome = outcomes[index] { return outcome }
        return try await withCheckedThrowingContinuation { continuation in
            waitingFor[index, default: []].append(continuation)
        }
    }

    /// A group is done with every range before `index`.
    func finished(group: Int, before index: Int) {
        next[group] = max(next[group], index)
        if let waiter = roomWaiter, waiter.index - taken < RebuildStage.lookahead {
            roomWaiter = nil
            waiter.continuation.resume()
        }
    }

    /// Whether every group is done with range `index`.
    func isTaken(_ index: Int) -> Bool { index < taken }

    /// Something failed: every waiter, now and later, gets `error`.
    func abandon(_ error: any Error) {
        guard abandoned == nil else { return }
        abandoned = error
        for waiters in waitingFor.values { for waiter in waiters { waiter.resume(throwing: error) } }
        waitingFor = [:]
        roomWaiter?.continuation.resume(throwing: error)
        roomWaiter = nil
    }
}
