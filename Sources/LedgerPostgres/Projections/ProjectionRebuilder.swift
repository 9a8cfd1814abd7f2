import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Rebuilds projections from position 0 into fresh tables and swaps them in at once.
///
/// The build goes into the schemas `<name>__build`, in steps of ``chunkSize`` positions (one
/// transaction each), while the live tables stay as they were and runners keep them current. The
/// indexes only readers use (`indexes.sql`) are created once the build's tables are full.
/// Each range is read and parsed once, for every projection being rebuilt, by a connection of its
/// own (``LogReader``), while the folder folds the range before it into every build schema (decision
/// 0061). The swap is one transaction: it waits for
/// the projections' fold locks, folds the events appended meanwhile, drops the live schemas and
/// renames the build schemas to take their place. Readers see the old tables or the new ones,
/// never a half-built model. A rebuild that is killed leaves only build schemas, which the next
/// rebuild replaces.
///
/// An event a projection's fold cannot take stops that projection on that log just before it
/// (``ProjectionStall``, found by the runner's search), and the build goes on with the other logs
/// and projections; the swap takes the stall in with the tables, and ``Result/stalls`` names it.
public struct ProjectionRebuilder: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public var logger: Logger
    /// Positions per build step.
    public var chunkSize: Int64

    /// Creates a rebuilder.
    public init(pool: LedgerPool, chunkSize: Int64 = 50_000,
                logger: Logger = Logger(label: "consent-ledger.projections")) {
        self.pool = pool
        self.chunkSize = chunkSize
        self.logger = logger
    }

    /// How far a rebuild has got.
    public struct Progress: Sendable {
        /// The projections being rebuilt, comma-separated.
        public var projection: String
        /// Positions folded so far, over every log.
        public var done: Int64
        /// Positions to fold (the sum of the logs' heads when the rebuild started).
        public var total: Int64
        /// Events read so far (of the types the projections read).
        public var events: Int
        /// Seconds since the rebuild started.
        public var elapsed: Double
        /// True for the last report, after the swap.
        public var isFinal: Bool

        /// `subject_state: 120000/1000000 positions (12%), 180000 positions/s` or, at the end,
        /// `subject_state: rebuilt from 1000000 positions (…) in 5.2 s (192000 positions/s)`.
        public var line: String {
            let rate = elapsed > 0 ? Int(Double(done) / elapsed) : 0
            if isFinal {
                return "\(projection): rebuilt from \(done) positions (\(events) events read) in "
                    + String(format: "%.1f", elapsed) + " s (\(rate) positions/s)"
            }
            let percent = total > 0 ? Int(100 * done / total) : 100
            return "\(projection): \(done)/\(total) positions (\(percent)%), \(rate) positions/s"
        }
    }

    /// What a rebuild did.
    public struct Result: Sendable {
        /// Positions folded, over every log, including those appended during the rebuild.
        public var positions: Int64
        /// Events read (of the types the projections read).
        public var events: Int
        /// Seconds, build and swap.
        public var seconds: Double
        /// The logs the rebuilt projections stopped on, each at the event its fold failed on.
        public var stalls: [ProjectionStall] = []
    }

    /// Rebuilds `projection`; `progress` is called after each step and once at the end.
    /// - Throws: `projection-busy` when another process is rebuilding it.
    public func rebuild(_ projection: ProjectionDefinition,
                        progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Result {
        try await rebuild([projection], progress: progress)
    }

    /// Rebuilds `projections` (each range read once for all of them) and swaps them all in one transaction.
    /// - Throws: `projection-busy` when another process is rebuilding one of them.
    public func rebuild(_ projections: [ProjectionDefinition],
                        progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Result {
        let started = ContinuousClock.now
        @Sendable func elapsed() -> Double {
            let d = ContinuousClock.now - started
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        let label = projections.map(\.name).joined(separator: ", ")
        let runner = ProjectionRunner(pool: pool, chunkSize: chunkSize, logger: logger)
        return try await pool.withConnection { connection in
            var locked: [ProjectionDefinition] = []
            do {
                for projection in projections {
                    guard try await ProjectionLocks.tryRebuildLock(projection.name, on: connection, logger: logger) else {
                        throw LedgerError(.projectionBusy, "another process is rebuilding \(projection.name)",
                                          hint: "Wait for it to finish; `consent-ledger project status` shows when it has.")
                    }
                    locked.append(projection)
                }
                for projection in projections {
                    try await ProjectionSchema.create(projection, schema: projection.buildSchema, readerIndexes: false,
                                                      on: connection, logger: logger)
                }
                var heads: [(String, Int64)] = []
                for try await row in try await connection.watchedQuery(
                    "SELECT log_id, head_position FROM ledger.logs ORDER BY log_id", logger: logger).decode((String, Int64).self) {
                    heads.append(row)
                }
                let total = heads.reduce(0) { $0 + $1.1 }
                let tally = Tally()
                let events = try await withoutActuallyEscaping(progress) { progress in
                    try await build(projections, ranges: Self.ranges(heads: heads, chunkSize: chunkSize), runner: runner,
                                    tally: tally, on: connection) { done, events in
                        progress(Progress(projection: label, done: done, total: total, events: events, elapsed: elapsed(),
                                          isFinal: false))
                    }
                }
                // The indexes only readers use, built once over the full tables rather than
                // kept up row by row through the build; then the planner's statistics, so that
                // the first report after the swap is not planned on empty tables' statistics (autovacuum
                // analyses them only later, or, on a busy server, much later).
                for projection in projections {
                    try await ProjectionSchema.createReaderIndexes(projection, schema: projection.buildSchema,
                                                                   on: connection, logger: logger)
                    try await ProjectionSchema.analyze(projection, schema: projection.buildSchema, on: connection, logger: logger)
                }
                var done = total
                var read = events
                // The swap: catch up with what was appended meanwhile, then replace the live schemas.
                let (latePositions, lateEvents, stalls) = try await swap(projections, runner: runner, on: connection)
                done += latePositions
                read += lateEvents
                for projection in locked {
                    try await ProjectionLocks.releaseRebuildLock(projection.name, on: connection, logger: logger)
                }
                locked = []
                let seconds = elapsed()
                progress(Progress(projection: label, done: done, total: max(total, done), events: read,
                                  elapsed: seconds, isFinal: true))
                return Result(positions: done, events: read, seconds: seconds, stalls: stalls)
            } catch {
                // Release the session's rebuild locks before the connection goes back to the pool.
                for projection in locked {
                    _ = try? await ProjectionLocks.releaseRebuildLock(projection.name, on: connection, logger: logger)
                }
                throw error
            }
        }
    }

    /// How long the swap waits for its locks on the live tables (``ProjectionSchema/lockLive(_:on:logger:)``)
    /// before it gives way: under PostgreSQL's `deadlock_timeout` (1 s), so that when a reader holds
    /// one live table and waits for another the swap has taken, the swap is the one that backs off
    /// (and tries again) rather than a deadlock error for either.
    static let swapLockTimeout = "500ms"

    /// How many times the swap is tried before the rebuild gives up (its build schemas stay; the
    /// next rebuild replaces them).
    static let swapAttempts = 20

    /// Catches the build schemas up with the events appended during the build and swaps them in,
    /// in one transaction; tried again (after a pause that grows) when a reader's locks on the live
    /// tables are in the way. Returns the late positions, their events, and the stalls.
    private func swap(_ projections: [ProjectionDefinition], runner: ProjectionRunner,
                      on connection: PostgresConnection) async throws -> (Int64, Int, [ProjectionStall]) {
        var attempt = 1
        while true {
            do {
                return try await connection.inTransaction(logger: logger) { connection in
                    try await swapOnce(projections, runner: runner, on: connection)
                }
            } catch let error as PSQLError where Self.isLockConflict(error) && attempt < Self.swapAttempts {
                logger.info("rebuild: the live tables are busy (\(error.serverInfo?[.message] ?? "lock conflict")); swapping again")
                try await Task.sleep(for: .milliseconds(100 * min(attempt, 10)))
                attempt += 1
            } catch let error as PSQLError where Self.isLockConflict(error) {
                throw LedgerError(.projectionBusy,
                                  "the rebuilt projections could not be swapped in: readers kept the live tables busy "
                                      + "through \(Self.swapAttempts) attempts",
                                  hint: "Run the rebuild again when fewer reports are running; nothing of the live tables changed.")
            }
        }
    }

    /// A lock wait that ran out (`lock_timeout`, SQLSTATE 55P03) or a deadlock (40P01).
    static func isLockConflict(_ error: PSQLError) -> Bool {
        ["55P03", "40P01"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    private func swapOnce(_ projections: [ProjectionDefinition], runner: ProjectionRunner,
                          on connection: PostgresConnection) async throws -> (Int64, Int, [ProjectionStall]) {
        for projection in projections.sorted(by: { $0.name < $1.name }) {
            try await ProjectionLocks.foldLock(projection.name, on: connection, logger: logger)
        }
        var positions: Int64 = 0, events = 0
        for projection in projections {
            var caughtUp: Int64 = 0
            for log in try await logIds(on: connection) {
                // Stops at the head, or at a stall (recorded in the build's checkpoints).
                while case .folded(let after, let through, let count) = try await runner.foldNext(
                    projection, schema: projection.buildSchema, log: log, chunkSize: chunkSize, on: connection) {
                    caughtUp += through - after
                    events += count
                }
            }
            positions = max(positions, caughtUp)  // the same late positions, folded into each
        }
        try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL client_min_messages = warning"), logger: logger)
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(Self.swapLockTimeout)'"), logger: logger)
        try await ProjectionSchema.lockLive(projections, on: connection, logger: logger)
        var stalls: [ProjectionStall] = []
        for projection in projections {
            try await ProjectionSchema.swapIn(projection, on: connection, logger: logger)
            stalls += try await ProjectionStall.read(projection.name, on: connection, logger: logger)
        }
        return (positions, events, stalls)
    }

    /// One range of one log, in the order the ranges are read and folded.
    struct Range: Sendable, Equatable {
        /// Its place in the whole rebuild, from 0.
        var index: Int
        var log: String
        /// Positions (`after`, `through`].
        var after: Int64
        var through: Int64
    }

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

    /// A range as the reader left it: its events, parsed, or the failure of a record no fold can read.
    private typealias Read = Swift.Result<[LedgerEvent], ProjectionRunner.FoldFailure>

    /// The build itself: a reader reads and parses each range once for every projection, on a
    /// connection of its own, while the folder folds the range before it into every build schema
    /// (one transaction per range); returns the events read. `progress` gets the positions folded
    /// and the events read so far.
    private func build(_ projections: [ProjectionDefinition], ranges: [Range], runner: ProjectionRunner, tally: Tally,
                       on connection: PostgresConnection, progress: @escaping @Sendable (Int64, Int) -> Void) async throws -> Int {
        let types = Array(Set(projections.flatMap(\.reads))).sorted()
        let pool = self.pool, logger = self.logger
        @Sendable func read(_ range: Range) async throws -> Read {
            try await pool.withConnection { reader in
                do {
                    return .success(try await LogReader.events(log: range.log, after: range.after, through: range.through,
                                                               types: types, on: reader, logger: logger))
                } catch {
                    guard let message = ProjectionStall.foldFailure(error) else { throw error }
                    return .failure(ProjectionRunner.FoldFailure(message: message, error: error))
                }
            }
        }
        var failed: [ProjectionDefinition] = []
        var next: Task<Read, any Error>? = ranges.first.map { first in Task { try await read(first) } }
        defer { next?.cancel() }  // a rebuild that fails does not leave a read running
        var total = 0
        for range in ranges {
            guard let reading = next else { break }
            let current = try await reading.value
            // The next range is read and parsed while this one is folded.
            next = range.index + 1 < ranges.count ? Task { [ranges] in try await read(ranges[range.index + 1]) } : nil
            var readHere = 0
            switch current {
            case .failure:
                failed = projections
            case .success(let events):
                readHere = events.count
                let going = projections.filter { !failed.contains($0) }
                if !going.isEmpty {
                    failed += try await connection.inTransaction(logger: logger) { connection in
                        try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
                        return try await foldRead(going, events: events, range: range, on: connection)
                    }
                }
            }
            total += readHere
            let (done, events) = tally.add(positions: range.through - range.after, events: readHere)
            progress(done, events)
            let lastOfLog = range.index + 1 == ranges.count || ranges[range.index + 1].log != range.log
            if lastOfLog {
                // A projection whose fold failed on this log: the runner finds the event and records the stall.
                for projection in failed {
                    while case .folded = try await connection.inTransaction(logger: logger, { connection in
                        try await runner.foldNext(projection, schema: projection.buildSchema, log: range.log,
                                                  chunkSize: chunkSize, on: connection)
                    }) {}
                }
                failed = []
            }
        }
        return total
    }

    /// Folds a read range into every projection's build schema, moving each build checkpoint;
    /// returns the projections whose fold failed on the range: their checkpoints stay where they were.
    private func foldRead(_ projections: [ProjectionDefinition], events: [LedgerEvent], range: Range,
                          on connection: PostgresConnection) async throws -> [ProjectionDefinition] {
        var failed: [ProjectionDefinition] = []
        let shared = FoldRange(log: range.log, after: range.after, through: range.through)
        for projection in projections {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL:
                "SET LOCAL search_path = \(ProjectionSchema.quoted(projection.buildSchema)), pg_temp"), logger: logger)
            let folded: Int
            do {
                try await connection.watchedQuery("SAVEPOINT member_fold", logger: logger)
                folded = try await FoldInput.foldRange(projection, shared, read: events, on: connection, logger: logger)
                try await connection.watchedQuery("RELEASE SAVEPOINT member_fold", logger: logger)
            } catch where ProjectionStall.foldFailure(error) != nil {
                try await connection.watchedQuery("ROLLBACK TO SAVEPOINT member_fold", logger: logger)
                try await connection.watchedQuery("RELEASE SAVEPOINT member_fold", logger: logger)
                failed.append(projection)
                continue
            }
            try await connection.watchedQuery("""
                INSERT INTO checkpoints AS c (log_id, position, events_folded) VALUES (\(range.log), \(range.through), \(folded))
                ON CONFLICT (log_id) DO UPDATE
                   SET position = excluded.position, events_folded = c.events_folded + excluded.events_folded,
                       updated_at = clock_timestamp()
                """, logger: logger)
        }
        return failed
    }

    /// Positions and events done over every group, for progress reports.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var positions: Int64 = 0
        private var events = 0
        func add(positions: Int64, events: Int) -> (Int64, Int) {
            lock.lock()
            defer { lock.unlock() }
            self.positions += positions
            self.events += events
            return (self.positions, self.events)
        }
    }

    private func logIds(on connection: PostgresConnection) async throws -> [String] {
        var ids: [String] = []
        for try await id in try await connection.watchedQuery("SELECT log_id FROM ledger.logs ORDER BY log_id", logger: logger)
            .decode(String.self) { ids.append(id) }
        return ids
    }
}
