import Foundation
import LedgerCore
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Recomputes every hash and link of a log and compares every event's columns with its record,
/// in consecutive ranges of positions checked side by side on several connections that share one
/// snapshot, and names the first bad position (issue 19; decision 0043).
///
/// - One snapshot: the first connection opens a repeatable-read transaction, reads the log's head
///   and exports its snapshot; every other connection imports it. An append that commits while
///   verify runs is seen by none of them, and a head that does not match the newest event is a
///   real problem, never a race.
/// - Ranges: each range (``RangeCheck``) starts from the stored chain hash before it, so the
///   ranges are independent; each checks that its last stored chain hash is the one it computed,
///   and the joins are checked again at the end (range k ends on the chain hash range k + 1 started
///   from).
/// - Per event (``ChainVerifier``): the position follows the previous one, SHA-256 of the leaf and
///   of the link, the record skimmed rather than parsed (``RecordSkim``), the columns compared with
///   the skimmed record in Swift (``ColumnAgreement``), and every event the skim or the comparison
///   cannot decide handed to the database's rule (`ledger.column_problems`).
public struct LogVerifier: Sendable {
    /// The outcome of a verification.
    public struct Report: Sendable, Equatable {
        /// The log.
        public var log: String
        /// How many events checked out (those before the first problem, when there is one), after
        /// ``startPosition``.
        public var verifiedCount: Int64
        /// The head the log's row claims.
        public var headPosition: Int64
        /// The chain hash of the last verified event (the head's when the log passed).
        public var lastChainHash: [UInt8]
        /// Valid records that are not RFC 8785 canonical (appended by a non-canonicalizing client).
        public var nonCanonicalCount: Int64
        /// The first problem, or nil when everything checks.
        public var problem: IntegrityProblem?
        /// Events whose columns were compared with their records by the database's rule
        /// (`ledger.column_problems`) rather than in Swift: records not in the form the ledger
        /// writes, and columns the fast comparison could not match (decision 0043).
        public var referredCount: Int64 = 0
        /// The position the check started after (0: the whole log; a checkpoint's size with
        /// `since`).
        public var startPosition: Int64 = 0
        /// The stored Merkle tree, checked against the verified leaf hashes (nil when it was not
        /// in scope: a check that started after a checkpoint).
        public var tree: TreeCheck?
        /// True when every hash and link checks, and the tree when it was checked.
        public var passed: Bool { problem == nil && tree?.problem == nil }

        /// A report from its parts.
        public init(log: String, verifiedCount: Int64, headPosition: Int64, lastChainHash: [UInt8], nonCanonicalCount: Int64,
                    problem: IntegrityProblem?, startPosition: Int64 = 0) {
            self.log = log
            self.verifiedCount = verifiedCount
            self.headPosition = headPosition
            self.lastChainHash = lastChainHash
            self.nonCanonicalCount = nonCanonicalCount
            self.problem = problem
            self.startPosition = startPosition
        }
    }

    /// What was found of a log's stored Merkle tree.
    public struct TreeCheck: Sendable, Equatable {
        /// Leaves whose complete subtrees are all stored.
        public var size: Int64
        /// Stored nodes compared with the nodes computed from the leaves.
        public var nodesChecked: Int64
        /// The first node that does not match, or a level holding the wrong number of nodes.
        public var problem: String?
    }

    /// Positions per range: a few hundred milliseconds of work, so that both connections stay busy
    /// to the end and progress moves often.
    public static let defaultRangeSize: Int64 = 65_536

    /// Connections that check ranges at once: one per core, since each range costs the client
    /// (hashing) about as much as the server (reading and sending the rows).
    public static var defaultParallelism: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The pool (the auditor's is enough).
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A verifier reading through `store`'s pool.
    public init(store: EventStore) {
        self.pool = store.pool
        self.logger = store.logger
    }

    /// Verifies `log` from position `after + 1` (from the start when 0), whose chain hash before
    /// it is `startChainHash`, to its head; `progress` hears the events checked so far and the
    /// head, as ranges finish.
    public func verify(log: String, after start: Int64 = 0, startChainHash: [UInt8] = LedgerHash.genesis,
                       parallelism: Int = LogVerifier.defaultParallelism, rangeSize: Int64 = LogVerifier.defaultRangeSize,
                       progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws -> Report {
        let known = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let logger = self.logger
        let pool = self.pool
        return try await pool.withConnection { first in
            try await first.inTransaction(logger: logger, beginning: Self.begin) { first in
                let rows = try await first.watchedQuery("""
                    SELECT l.head_position, l.head_chain_hash,
                           coalesce((SELECT max(e.position) FROM ledger.events e WHERE e.log_id = l.log_id), 0),
                           coalesce((SELECT t.size FROM ledger.merkle_trees t WHERE t.log_id = l.log_id), 0), pg_export_snapshot()
                      FROM ledger.logs l WHERE l.log_id = \(log)
                    """, logger: logger)
                var snapshot: (Int64, ByteBuffer, Int64, Int64, String)?
                for try await row in rows.decode((Int64, ByteBuffer, Int64, Int64, String).self) { snapshot = row }
                guard let (headPosition, headChain, newest, storedTreeSize, snapshotID) = snapshot else {
                    throw LedgerError(.logNotFound, "there is no log named \(log)")
                }
                let head = LogHead(log: log, position: headPosition, chainHash: Array(buffer: headChain), createdAt: known.createdAt)
                try await Self.plan(first, logger: logger)
                let rangeSize = max(1, rangeSize)
                // The tree is checked with the ranges when they start at position 1 on multiples of
                // a power of two (every stored node then lies inside one range, or above them).
                let treeSize = start == 0 && rangeSize & (rangeSize - 1) == 0 ? min(storedTreeSize, head.position) : nil
                // Every event is read, up to the newest: one beyond the head (the head moved back
                // behind the triggers' back) checks out and then fails the head check.
                let through = max(head.position, newest)
                let plan = Plan(log: log, head: head, through: through, treeSize: treeSize ?? 0, rangeSize: rangeSize)
                let queue = RangeQueue(from: start + 1, through: through, size: rangeSize)
                let outcomes = try await withThrowingTaskGroup(of: [RangeCheck.Outcome].self) { group in
                    for _ in 1..<max(1, min(parallelism, queue.count)) {
                        group.addTask {
                            try await pool.withConnection { connection in
                                try await connection.inTransaction(logger: logger, beginning: Self.begin) { connection in
                                    try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET TRANSACTION SNAPSHOT '\(try Self.checked(snapshotID))'"),
                                                                      logger: logger)
                                    try await Self.plan(connection, logger: logger)
                                    return try await Self.work(queue, plan, on: connection, logger: logger, progress: progress)
                                }
                            }
                        }
                    }
                    var outcomes = try await Self.work(queue, plan, on: first, logger: logger, progress: progress)
                    for try await more in group { outcomes += more }
                    return outcomes
                }
                let sorted = outcomes.sorted { $0.first < $1.first }
                var report = Self.combine(sorted, log: log, head: head, start: start, startChainHash: startChainHash)
                if let treeSize, report.problem == nil {
                    report.tree = try await Self.checkTree(sorted, plan: plan, size: treeSize, on: first, logger: logger)
                }
                return report
            }
        }
    }

    private static let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    /// Each range is read through the primary key, in position order, by the one backend of its
    /// connection. Without this the planner, misled by statistics that have not seen a new log yet,
    /// read the whole table in parallel and sorted it, once per range (measured: 0.5 s a range of
    /// a 2.4-million-row table). JIT costs more than it saves on these short statements.
    private static func plan(_ connection: PostgresConnection, logger: Logger) async throws {
        for setting in ["enable_seqscan = off", "enable_bitmapscan = off", "enable_sort = off",
                        "max_parallel_workers_per_gather = 0", "jit = off"] {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL " + setting), logger: logger)
        }
    }

    /// What every range of one verification shares.
    private struct Plan: Sendable {
        let log: String
        let head: LogHead
        /// The last position read: the head's, or the newest event's when that is beyond it.
        let through: Int64
        let treeSize: Int64
        let rangeSize: Int64
    }

    /// Checks ranges from `queue` until it is empty or a problem before them was found.
    private static func work(_ queue: RangeQueue, _ plan: Plan, on connection: PostgresConnection, logger: Logger,
                             progress: @Sendable (Int64, Int64) -> Void) async throws -> [RangeCheck.Outcome] {
        var outcomes: [RangeCheck.Outcome] = []
        while let range = queue.next() {
            let outcome = try await RangeCheck(log: plan.log, first: range.lowerBound, last: range.upperBound,
                                               isLast: range.upperBound == plan.through, treeSize: plan.treeSize,
                                               rangeSize: plan.rangeSize).run(on: connection, logger: logger)
            if let problem = outcome.problem { queue.stop(at: problem.position) }
            outcomes.append(outcome)
            progress(queue.add(checked: outcome.verifiedCount), plan.through)
        }
        return outcomes
    }

    /// The tree from the ranges' outcomes (the nodes inside each range) and the nodes above them.
    private static func checkTree(_ outcomes: [RangeCheck.Outcome], plan: Plan, size: Int64, on connection: PostgresConnection,
                                  logger: Logger) async throws -> TreeCheck {
        let inside = outcomes.reduce(0) { $0 + $1.nodesChecked }
        let upper = UpperTree(size: size, rangeLevel: plan.rangeSize.trailingZeroBitCount)
        if let problem = try await upper.countProblem(log: plan.log, on: connection, logger: logger)
            ?? outcomes.lazy.compactMap(\.treeProblem).first {
            return TreeCheck(size: size, nodesChecked: inside, problem: problem)
        }
        let (above, problem) = try await upper.check(roots: outcomes.compactMap(\.root), log: plan.log, on: connection, logger: logger)
        return TreeCheck(size: size, nodesChecked: inside + above, problem: problem)
    }

    /// The report from every range's outcome, in position order.
    private static func combine(_ outcomes: [RangeCheck.Outcome], log: String, head: LogHead, start: Int64,
                                startChainHash: [UInt8]) -> Report {
        var problems = outcomes.compactMap(\.problem)
        if let first = outcomes.first, first.startChainHash != startChainHash {
            problems.append(IntegrityProblem(position: first.first, kind: .chainHash,
                                             detail: "the chain hash stored before position \(first.first) is \(LedgerHash.hex(first.startChainHash)), not the \(LedgerHash.hex(startChainHash)) the check started from"))
        }
        for (before, after) in zip(outcomes, outcomes.dropFirst()) where before.endChainHash != after.startChainHash {
            problems.append(IntegrityProblem(position: after.first, kind: .chainHash,
                                             detail: "the ranges before and from position \(after.first) do not join: the chain computed to position \(before.last) is \(LedgerHash.hex(before.endChainHash)), the one stored there \(LedgerHash.hex(after.startChainHash))"))
        }
        let nonCanonical = outcomes.reduce(0) { $0 + $1.nonCanonicalCount }
        let referred = outcomes.reduce(0) { $0 + $1.referredCount }
        if let problem = problems.min(by: { $0.position < $1.position }) {
            let failing = outcomes.last { $0.first <= problem.position } ?? outcomes.first
            // The ranges before the problem all passed; the one holding it counts what came before it.
            let verified = outcomes.filter { $0.first < problem.position }.reduce(0) { $0 + $1.verifiedCount }
            var report = Report(log: log, verifiedCount: verified, headPosition: head.position,
                                lastChainHash: failing?.endChainHash ?? startChainHash, nonCanonicalCount: nonCanonical,
                                problem: problem, startPosition: start)
            report.referredCount = referred
            return report
        }
        let through = outcomes.last?.checkedThrough ?? start
        let chain = outcomes.last?.endChainHash ?? startChainHash
        let headProblem = ChainVerifier(log: log, after: through, chainHash: chain).checkHead(position: head.position, chainHash: head.chainHash)
        var report = Report(log: log, verifiedCount: through - start, headPosition: head.position, lastChainHash: chain,
                            nonCanonicalCount: nonCanonical, problem: headProblem, startPosition: start)
        report.referredCount = referred
        return report
    }

    /// A snapshot id as PostgreSQL exports it (`00000003-0000001B-1`): checked before it is
    /// written into `SET TRANSACTION SNAPSHOT`, which takes no parameter.
    private static func checked(_ snapshot: String) throws -> String {
        guard !snapshot.isEmpty, snapshot.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || $0 == 0x2D }) else {
            throw LedgerError(.databaseError, "PostgreSQL exported an unexpected snapshot id: \(snapshot)")
        }
        return snapshot
    }
}

/// The ranges of one verification, handed out in order to the connections that check them, and
/// the count of events checked so far.
final class RangeQueue: Sendable {
    private struct State {
        var next: Int64
        var stopAt = Int64.max
        var checked: Int64 = 0
    }

    private let state: NIOLockedValueBox<State>
    private let last: Int64
    private let size: Int64

    /// How many ranges there are.
    let count: Int

    init(from first: Int64, through last: Int64, size: Int64) {
        state = NIOLockedValueBox(State(next: first))
        self.last = last
        self.size = size
        count = last < first ? 0 : Int((last - first) / size + 1)
    }

    /// The next range, or nil when all are taken or the next begins after a problem found.
    func next() -> ClosedRange<Int64>? {
        state.withLockedValue { state in
            guard state.next <= last, state.next <= state.stopAt else { return nil }
            let range = state.next...min(last, state.next + size - 1)
            state.next = range.upperBound + 1
            return range
        }
    }

    /// A problem was found at `position`: ranges after it need not be checked.
    func stop(at position: Int64) {
        state.withLockedValue { $0.stopAt = min($0.stopAt, position) }
    }

    /// Adds to the events checked; returns the total.
    func add(checked: Int64) -> Int64 {
        state.withLockedValue { state in
            state.checked += checked
            return state.checked
        }
    }
}
