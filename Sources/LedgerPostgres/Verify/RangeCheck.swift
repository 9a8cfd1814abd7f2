import LedgerCore
import Logging
import NIOCore
import PostgresNIO

/// One range of positions of a verification (``LogVerifier``), checked on one connection inside
/// the verification's snapshot: it starts from the chain hash stored before the range, streams the
/// range's rows in binary, checks each with a ``ChainVerifier`` and ``ColumnAgreement``, and asks
/// the database (`ledger.column_problems`) about the events those could not decide.
struct RangeCheck: Sendable {
    /// What one range found.
    struct Outcome: Sendable {
        /// The range.
        var first: Int64
        var last: Int64
        /// The chain hash stored before `first` (the genesis hash before position 1).
        var startChainHash: [UInt8]
        /// The chain hash computed at ``checkedThrough``.
        var endChainHash: [UInt8]
        /// The last position that checked out (`first - 1` when none did).
        var checkedThrough: Int64
        /// Events that checked out before the first problem.
        var verifiedCount: Int64
        /// Valid records not in canonical form.
        var nonCanonicalCount: Int64
        /// Events whose columns were handed to the database's rule.
        var referredCount: Int64 = 0
        /// Stored Merkle nodes checked inside the range.
        var nodesChecked: Int64 = 0
        /// The first stored Merkle node inside the range that does not match its leaves.
        var treeProblem: String?
        /// The range's root (its node at the level of the range size), when the whole range is
        /// inside the tree.
        var root: Hash32?
        /// The first problem in the range, if any.
        var problem: IntegrityProblem?
    }

    let log: String
    let first: Int64
    let last: Int64
    /// The range is the verification's last (it ends at the head, or at the newest event when
    /// that is beyond the head): events missing at its end are the head check's to report (the
    /// head names more events than there are), not a gap.
    let isLast: Bool
    /// The stored tree's size when its nodes are checked with the range (0: they are not). The
    /// range's first position then follows a multiple of ``rangeSize``, a power of two.
    var treeSize: Int64 = 0
    /// The range size the ranges were cut with.
    var rangeSize: Int64 = 0

    /// Checks the range on `connection`.
    func run(on connection: PostgresConnection, logger: Logger) async throws -> Outcome {
        guard let start = try await chainHash(before: first, on: connection, logger: logger) else {
            return Outcome(first: first, last: last, startChainHash: [], endChainHash: [], checkedThrough: first - 1,
                           verifiedCount: 0, nonCanonicalCount: 0, referredCount: 0,
                           problem: IntegrityProblem(position: first - 1, kind: .gap, detail: "position \(first - 1) is missing"))
        }
        var verifier = ChainVerifier(log: log, after: first - 1, chainHash: start)
        var referred: [Int64] = []
        var problem: IntegrityProblem?
        let logBytes = Array(log.utf8)
        var tree = RangeTree(first: first, capacity: Int(max(0, min(last, treeSize) - first + 1)))
        let rows = try await connection.watchedQuery("""
            SELECT position, record, leaf_hash, chain_hash, \(unescaped: ColumnAgreement.columns)
              FROM ledger.events WHERE log_id = \(log) AND position BETWEEN \(first) AND \(last) ORDER BY position
            """, logger: logger)
        rowLoop: for try await row in rows {
            var cells = row.makeIterator()
            guard let positionCell = cells.next()?.bytes, positionCell.readableBytes == 8,
                  let position = positionCell.getInteger(at: positionCell.readerIndex, as: Int64.self),
                  let record = cells.next()?.bytes, let leaf = cells.next()?.bytes, let chain = cells.next()?.bytes,
                  let columns = cells.next()?.bytes
            else {
                throw LedgerError(.databaseError, "verify read a row of ledger.events it cannot decode")
            }
            let checked = record.withUnsafeReadableBytes { record in
                leaf.withUnsafeReadableBytes { leaf in
                    chain.withUnsafeReadableBytes { chain in
                        columns.withUnsafeReadableBytes { columns in
                            Self.check(&verifier, position: position, record: record, leaf: leaf, chain: chain,
                                       columns: columns, log: logBytes)
                        }
                    }
                }
            }
            if case .success = checked, position <= treeSize, let hash = leaf.withUnsafeReadableBytes({ Hash32($0) }) {
                tree.leaves.append(hash)
            }
            switch checked {
            case .success(true): break
            case .success(false): referred.append(position)
            case .failure(let found):
                problem = found
                break rowLoop
            }
        }
        if problem == nil, !isLast, verifier.lastPosition < last {
            problem = IntegrityProblem(position: verifier.lastPosition + 1, kind: .gap,
                                       detail: "position \(verifier.lastPosition + 1) is missing (expected every position from \(first) to \(last))")
        }
        if !referred.isEmpty, let found = try await columnProblem(referred, on: connection, logger: logger),
           found.position < problem?.position ?? Int64.max {
            problem = found
        }
        // Events before the first problem: the verifier stopped at a bad event, but a column
        // problem found afterwards may lie before where it stopped.
        let verified = problem.map { min(verifier.verifiedCount, $0.position - first) } ?? verifier.verifiedCount
        var outcome = Outcome(first: first, last: last, startChainHash: start, endChainHash: verifier.lastChainHash,
                              checkedThrough: verifier.lastPosition, verifiedCount: max(0, verified),
                              nonCanonicalCount: verifier.nonCanonicalCount, referredCount: Int64(referred.count), problem: problem)
        if problem == nil, !tree.leaves.isEmpty {
            let levels = tree.levels()
            (outcome.nodesChecked, outcome.treeProblem) = try await tree.check(levels, log: log, on: connection, logger: logger)
            if Int64(tree.leaves.count) == rangeSize { outcome.root = levels.last?.first ?? tree.leaves.first }
        }
        return outcome
    }

    /// One event: its hashes and record (``ChainVerifier``), then its columns (``ColumnAgreement``).
    /// `.success(false)`: good so far, but only the database can tell whether its columns agree.
    private static func check(_ verifier: inout ChainVerifier, position: Int64, record: UnsafeRawBufferPointer,
                              leaf: UnsafeRawBufferPointer, chain: UnsafeRawBufferPointer, columns: UnsafeRawBufferPointer,
                              log: [UInt8]) -> Result<Bool, IntegrityProblem> {
        switch verifier.check(position: position, record: record, leafHash: leaf, chainHash: chain) {
        case .success(.skimmed(let skim)):
            return .success(ColumnAgreement.agrees(record: record, skim: skim, log: log, position: position, columns: columns))
        case .success(.parsed):
            return .success(false)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    /// The chain hash stored at `position - 1` (the genesis hash before position 1); nil when that
    /// event is missing.
    private func chainHash(before position: Int64, on connection: PostgresConnection, logger: Logger) async throws -> [UInt8]? {
        guard position > 1 else { return LedgerHash.genesis }
        let rows = try await connection.watchedQuery(
            "SELECT chain_hash FROM ledger.events WHERE log_id = \(log) AND position = \(position - 1)", logger: logger)
        var hash: [UInt8]?
        for try await value in rows.decode(ByteBuffer.self) { hash = Array(buffer: value) }
        return hash
    }

    /// The first of `positions` whose columns the database finds disagree with its record.
    private func columnProblem(_ positions: [Int64], on connection: PostgresConnection, logger: Logger) async throws -> IntegrityProblem? {
        let rows = try await connection.watchedQuery(
            "SELECT position, problem FROM ledger.column_problems(\(log), \(positions))", logger: logger)
        var found: IntegrityProblem?
        for try await (position, detail) in rows.decode((Int64, String).self) {
            found = IntegrityProblem(position: position, kind: .column, detail: detail)
        }
        return found
    }
}
