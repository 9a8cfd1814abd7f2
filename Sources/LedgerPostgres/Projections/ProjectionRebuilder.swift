import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Rebuilds projections from position 0 into fresh tables and swaps them in at once.
///
/// The build goes into the schemas `<name>__build`, in steps of ``chunkSize`` positions (one
/// transaction each), while the live tables stay as they were and runners keep them current. The
/// indexes only readers use (`indexes.sql`) are created once the build's tables are full.
/// Each range is staged (read and parsed) once, for every projection being rebuilt, by a connection
/// of its own (``RebuildStage``), while the projections fold the ranges staged before it in
/// ``parallelism`` groups, each on a connection of its own. The swap is one transaction: it waits for
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
    /// How many connections fold at once when several projections are rebuilt together, each a
    /// group of them (at most ``maximumGroups``); the stager's connection comes on top.
    public var parallelism: Int = 2

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
        /// Events read so far (of the types the projections read: staged for the SQL folds, read by the Swift ones).
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
        /// Events staged (of the types read).
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

    /// Rebuilds `projections` (folded in ``parallelism`` groups, each on a connection of its own,
    /// from ranges staged once for all) and swaps them all in one transaction.
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
                // The build: one connection stages each range once for all (RebuildStage), and the
                // projections fold it in groups, each group on a connection of its own.
                let groups = Self.groups(projections, count: min(parallelism, Self.maximumGroups))
                let ranges = RebuildStage.ranges(heads: heads, chunkSize: chunkSize)
                let stage = try await RebuildStage.create(on: connection, logger: logger)
                let tally = Tally()
                let events: Int
                do {
                    events = try await withoutActuallyEscaping(progress) { progress in
                        try await build(groups, ranges: ranges, stage: stage, runner: runner, tally: tally) { done, events in
                            progress(Progress(projection: label, done: done / Int64(groups.count), total: total,
                                              events: events, elapsed: elapsed(), isFinal: false))
                        }
                    }
                    try await stage.drop(on: connection)
                } catch {
                    try? await stage.drop(on: connection)
                    throw error
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
                var staged = events
                // The swap: catch up with what was appended meanwhile, then replace the live schemas.
                let (latePositions, lateEvents, stalls) = try await swap(projections, runner: runner, on: connection)
                done += latePositions
                staged += lateEvents
                for projection in locked {
                    try await ProjectionLocks.releaseRebuildLock(projection.name, on: connection, logger: logger)
                }
                locked = []
                let seconds = elapsed()
                progress(Progress(projection: label, done: done, total: max(total, done), events: staged,
                                  elapsed: seconds, isFinal: true))
                return Result(positions: done, events: staged, seconds: seconds, stalls: stalls)
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

    /// The most groups that build at once: the pool's connections (``ConnectionSettings/stagingPoolSize``)
    /// less the rebuild's own and the stager's.
    public static let maximumGroups = ConnectionSettings.stagingPoolSize - 2

    /// The build itself: a stager stages `ranges` one after the other while each group folds the
    /// staged ones into its members' build schemas, each on a connection of its own (the group of
    /// Swift folds reads each range itself); returns the events staged and read. `progress` gets the
    /// positions folded (summed over the groups) and the events staged and read so far.
    private func build(_ groups: [[ProjectionDefinition]], ranges: [RebuildStage.Range], stage: RebuildStage,
                       runner: ProjectionRunner, tally: Tally, progress: @escaping @Sendable (Int64, Int) -> Void) async throws -> Int {
        let board = StageBoard(groups: groups.count)
        // The stager stages what the SQL folds read; the Swift folds read the log themselves.
        let types = Array(Set(groups.joined().filter { !$0.isFoldedInSwift }.flatMap(\.reads))).sorted()
        return try await withThrowingTaskGroup(of: Int.self) { tasks in
            // The stager. After an event its staging cannot take, the log's later ranges are not
            // staged: every member then folds that log alone (the runner finds the event).
            tasks.addTask {
                do {
                    return try await pool.withConnection { connection in
                        var staged = 0, dropped = 0
                        var failedLog: String?
                        for range in ranges {
                            try await board.roomFor(range.index)
                            while dropped < range.index, await board.isTaken(dropped) {
                                try await stage.discard(ranges[dropped], on: connection)
                                dropped += 1
                            }
                            guard range.log != failedLog,
                                  let count = try await stage.stage(range, types: types, on: connection) else {
                                failedLog = range.log
                                await board.record(range.index, .failed)
                                continue
                            }
                            staged += count
                            let (done, events) = tally.add(positions: 0, events: count)
                            progress(done, events)
                            await board.record(range.index, .staged)
                        }
                        return staged
                    }
                } catch {
                    await board.abandon(error)
                    throw error
                }
            }
            for (number, members) in groups.enumerated() {
                tasks.addTask {
                    do {
                        try await pool.withConnection { connection in
                            try await fold(members, group: number, ranges: ranges, stage: stage, board: board,
                                           runner: runner, on: connection) { positions, read in
                                let (done, events) = tally.add(positions: positions, events: read)
                                progress(done, events)
                            }
                        }
                        return 0
                    } catch {
                        await board.abandon(error)
                        throw error
                    }
                }
            }
            for try await _ in tasks {}
            // Events staged for the SQL folds and read by the Swift ones.
            return tally.add(positions: 0, events: 0).1
        }
    }

    /// One group's part of the build: every range, as it is staged, folded into each member's
    /// build schema. A member whose fold fails on a log is left out of that log's later ranges,
    /// then the runner folds the log for it alone, finds the event and records the stall.
    private func fold(_ members: [ProjectionDefinition], group: Int, ranges: [RebuildStage.Range], stage: RebuildStage,
                      board: StageBoard, runner: ProjectionRunner, on connection: PostgresConnection,
                      folded: (Int64, Int) -> Void) async throws {
        let types = Array(Set(members.filter { !$0.isFoldedInSwift }.flatMap(\.reads))).sorted()
        var failed: [ProjectionDefinition] = []
        for range in ranges {
            var readHere = 0
            let going = members.filter { !failed.contains($0) }
            if !going.isEmpty {
                switch try await board.staging(of: range.index) {
                case .failed:
                    failed = members
                case .staged:
                    let (failedHere, read) = try await connection.inTransaction(logger: logger) { connection in
                        try await ProjectionSchema.actAsProjector(on: connection, logger: logger)
                        return try await foldStaged(going, types: types, range: range, stage: stage, on: connection)
                    }
                    failed += failedHere
                    readHere = read
                }
            }
            await board.finished(group: group, before: range.index + 1)
            folded(range.through - range.after, readHere)
            let lastOfLog = range.index + 1 == ranges.count || ranges[range.index + 1].log != range.log
            if lastOfLog {
                for projection in failed {
                    while case .folded = try await connection.inTransaction(logger: logger, { connection in
                        try await runner.foldNext(projection, schema: projection.buildSchema, log: range.log,
                                                  chunkSize: chunkSize, on: connection)
                    }) {}
                }
                failed = []
            }
        }
    }

    /// Folds a staged range into every projection's build schema, moving each build checkpoint;
    /// returns the projections whose fold failed on the range (their checkpoints stay where they
    /// were) and how many events the Swift folds read for it.
    private func foldStaged(_ projections: [ProjectionDefinition], types: [String], range: RebuildStage.Range,
                            stage: RebuildStage, on connection: PostgresConnection) async throws -> ([ProjectionDefinition], Int) {
        try await FoldInput.reset(on: connection, logger: logger)
        let staged = types.isEmpty ? 0 : try await FoldInput.take(from: stage.table(range), types: types, on: connection, logger: logger)
        var byType: [String: Int] = [:]
        if staged > 0 {
            for try await (type, count) in try await connection.watchedQuery(
                "SELECT type, count(*)::bigint FROM pg_temp.fold_input GROUP BY type", logger: logger).decode((String, Int64).self) {
                byType[type] = Int(count)
            }
        }
        var failed: [ProjectionDefinition] = []
        // The Swift folds' events: the range read and parsed once for all of them. A record none
        // can read leaves each to the runner, which finds it (a stall).
        let swiftMembers = projections.filter(\.isFoldedInSwift)
        var swiftEvents: [LedgerEvent] = []
        if !swiftMembers.isEmpty {
            do {
                swiftEvents = try await LogReader.events(log: range.log, after: range.after, through: range.through,
                                                         types: Array(Set(swiftMembers.flatMap(\.reads))).sorted(),
                                                         on: connection, logger: logger)
            } catch where ProjectionStall.foldFailure(error) != nil {
                failed = swiftMembers
            }
        }
        for projection in projections where !failed.contains(projection) {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL:
                "SET LOCAL search_path = \(ProjectionSchema.quoted(projection.buildSchema)), pg_temp"), logger: logger)
            var swiftFolded = 0
            if staged > 0 || projection.isFoldedInSwift {
                do {
                    try await connection.watchedQuery("SAVEPOINT member_fold", logger: logger)
                    if projection.isFoldedInSwift {
                        swiftFolded = try await FoldInput.foldRange(
                            projection, FoldRange(log: range.log, after: range.after, through: range.through),
                            read: swiftEvents, on: connection, logger: logger)
                    } else {
                        try await FoldInput.fold(projection, on: connection, logger: logger)
                    }
                    try await connection.watchedQuery("RELEASE SAVEPOINT member_fold", logger: logger)
                } catch where ProjectionStall.foldFailure(error) != nil {
                    try await connection.watchedQuery("ROLLBACK TO SAVEPOINT member_fold", logger: logger)
                    try await connection.watchedQuery("RELEASE SAVEPOINT member_fold", logger: logger)
                    failed.append(projection)
                    continue
                }
            }
            let folded = projection.isFoldedInSwift ? swiftFolded : projection.reads.reduce(0) { $0 + (byType[$1] ?? 0) }
            try await connection.watchedQuery("""
                INSERT INTO checkpoints AS c (log_id, position, events_folded) VALUES (\(range.log), \(range.through), \(folded))
                ON CONFLICT (log_id) DO UPDATE
                   SET position = excluded.position, events_folded = c.events_folded + excluded.events_folded,
                       updated_at = clock_timestamp()
                """, logger: logger)
        }
        return (failed, swiftEvents.count)
    }

    /// `projections` split into at most `count` groups, each keeping the catalogue's order. The
    /// projections folded in Swift make one group of their own, which reads and parses each range
    /// once for all of them; the SQL-folded ones share the other groups, of about equal work:
    /// greedy, heaviest first, by the number of fold statements, each of which reads the whole
    /// staged range at least once (the staging itself is shared, so the types a projection reads no
    /// longer weigh).
    static func groups(_ projections: [ProjectionDefinition], count: Int) -> [[ProjectionDefinition]] {
        let swift = projections.filter(\.isFoldedInSwift), sql = projections.filter { !$0.isFoldedInSwift }
        if !swift.isEmpty, !sql.isEmpty, count > 1 {
            return [swift] + sqlGroups(sql, count: count - 1)
        }
        return sqlGroups(projections, count: count)
    }

    /// `projections` in at most `count` groups of about equal fold statements.
    private static func sqlGroups(_ projections: [ProjectionDefinition], count: Int) -> [[ProjectionDefinition]] {
        let count = max(1, min(count, projections.count))
        var groups = Array(repeating: [ProjectionDefinition](), count: count)
        var load = Array(repeating: 0, count: count)
        func weight(_ projection: ProjectionDefinition) -> Int { projection.foldStatements.count }
        for projection in projections.sorted(by: { (weight($0), $1.name) > (weight($1), $0.name) }) {
            let lightest = load.indices.min { load[$0] < load[$1] }!
            groups[lightest].append(projection)
            load[lightest] += weight(projection)
        }
        return groups.map { group in projections.filter { p in group.contains(p) } }.filter { !$0.isEmpty }
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
