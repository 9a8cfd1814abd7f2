import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// A log's RFC 9162 Merkle tree as PostgreSQL keeps it (sql/tables/merkle-nodes.sql, decision
/// 0015): build it up to the head, and read roots and proofs from it.
///
/// Every read is one query for the O(log n) stored subtrees the answer needs: the generators of
/// ``MerkleTree`` run once against a recorder to learn which subtrees they ask for, the stored
/// hashes of those subtrees are read in one round trip, then the generators run again on them.
///
/// ```swift
/// let tree = MerkleStore(pool: pool)
/// _ = try await tree.extend(log: "acme")
/// let path = try await tree.inclusionProof(log: "acme", index: 6, size: 120)
/// ```
public struct MerkleStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.merkle")) {
        self.pool = pool
        self.logger = logger
    }

    /// How many leaves of `log` have their tree built (0 for a log never extended).
    public func size(log: String) async throws -> UInt64 {
        let rows = try await pool.query("SELECT size FROM ledger.merkle_trees WHERE log_id = \(log)", logger: logger)
        for try await size in rows.decode(Int64.self) { return UInt64(size) }
        return 0
    }

    /// Builds the tree of `log` up to its head (or to `upTo` leaves, when smaller), at most
    /// `chunk` leaves per transaction, calling `progress(built, target)` after each; returns the
    /// size reached.
    public func extend(log: String, upTo: UInt64? = nil, chunk: Int64 = 1_000_000,
                       progress: @Sendable (UInt64, UInt64) -> Void = { _, _ in }) async throws -> UInt64 {
        let headPosition = try await EventStore(pool: pool, logger: logger).requireHead(log: log).position
        let head = min(Int64(clamping: upTo ?? UInt64.max), headPosition)
        var size = try await self.size(log: log)
        while size < UInt64(head) {
            let step = min(chunk, head - Int64(size))
            let rows = try await pool.query("SELECT ledger.extend_merkle_tree(\(log), \(step))", logger: logger)
            var reached: Int64 = 0
            for try await value in rows.decode(Int64.self) { reached = value }
            guard UInt64(reached) > size else { break }
            size = UInt64(reached)
            progress(size, UInt64(head))
        }
        return size
    }

    /// The root hash of the first `size` leaves.
    public func root(log: String, size: UInt64) async throws -> [UInt8] {
        try await twoPass(log: log, size: size) { source in try await MerkleTree.rootHash(size: size, source: source) }
    }

    /// The audit path of leaf `index` in the tree of the first `size` leaves.
    public func inclusionProof(log: String, index: UInt64, size: UInt64) async throws -> [[UInt8]] {
        try await twoPass(log: log, size: size) { source in
            try await MerkleTree.inclusionProof(index: index, size: size, source: source)
        }
    }

    /// The audit paths of several leaves in the tree of the first `size` leaves, read in one
    /// query (a dossier proves each of its events).
    public func inclusionProofs(log: String, indexes: [UInt64], size: UInt64) async throws -> [[[UInt8]]] {
        guard !indexes.isEmpty else { return [] }
        return try await twoPass(log: log, size: size) { source in
            var paths: [[[UInt8]]] = []
            for index in indexes { paths.append(try await MerkleTree.inclusionProof(index: index, size: size, source: source)) }
            return paths
        }
    }

    /// The consistency proof from the first `from` leaves to the first `to` leaves.
    public func consistencyProof(log: String, from: UInt64, to: UInt64) async throws -> [[UInt8]] {
        try await twoPass(log: log, size: to) { source in
            try await MerkleTree.consistencyProof(from: from, to: to, source: source)
        }
    }

    /// Runs `compute` against a recorder, reads the subtrees it asked for, runs it again on them.
    private func twoPass<T>(log: String, size: UInt64,
                            _ compute: (any MerkleSubtreeSource) async throws -> T) async throws -> T {
        let built = try await self.size(log: log)
        guard size <= built else {
            throw LedgerError(.checkpointRefused, "the Merkle tree of log \(log) is built to \(built) leaves, not \(size)",
                              hint: "Run `consent-ledger checkpoint --log \(log)` to build it to the head and sign it.")
        }
        let recorder = RangeRecorder()
        _ = try await compute(recorder)
        let nodes = try await read(log: log, nodes: try recorder.completeSubtrees())
        return try await compute(StoredSubtrees(nodes: nodes, log: log))
    }

    /// The stored hashes of `nodes` (level 0: the events' leaf hashes), all of them or an error.
    private func read(log: String, nodes: Set<MerkleNode>) async throws -> [MerkleNode: [UInt8]] {
        let inner = nodes.filter { $0.level > 0 }
        let leaves = nodes.filter { $0.level == 0 }.map { Int64($0.index) + 1 }
        let levels = inner.map { Int64($0.level) }
        let indexes = inner.map { Int64($0.index) }
        let rows = try await pool.query("""
            SELECT n.level::bigint, n.index, n.hash
              FROM unnest(\(levels)::bigint[], \(indexes)::bigint[]) AS k(level, index)
              JOIN ledger.merkle_nodes n ON n.log_id = \(log) AND n.level = k.level AND n.index = k.index
            UNION ALL
            SELECT 0, e.position - 1, e.leaf_hash FROM ledger.events e
             WHERE e.log_id = \(log) AND e.position = ANY(\(leaves)::bigint[])
            """, logger: logger)
        var found: [MerkleNode: [UInt8]] = [:]
        for try await (level, index, hash) in rows.decode((Int64, Int64, Data).self) {
            found[MerkleNode(level: Int(level), index: UInt64(index))] = Array(hash)
        }
        if let missing = nodes.first(where: { found[$0] == nil }) {
            throw LedgerError(.integrityFailure, "the Merkle tree of log \(log) lacks the node at level \(missing.level), index \(missing.index)",
                              hint: "Run `consent-ledger verify --log \(log)`.")
        }
        return found
    }
}

/// A complete subtree: `2^level` leaves starting at leaf `index * 2^level`.
struct MerkleNode: Hashable, Sendable {
    var level: Int
    var index: UInt64

    /// The node that is exactly `range` (a complete subtree).
    init(completeRange range: Range<UInt64>) {
        let length = range.upperBound - range.lowerBound
        level = length.trailingZeroBitCount
        index = range.lowerBound >> UInt64(level)
    }

    init(level: Int, index: UInt64) {
        self.level = level
        self.index = index
    }
}

/// Answers every request with a dummy hash and remembers the ranges asked for.
private final class RangeRecorder: MerkleSubtreeSource {
    private(set) var ranges: [Range<UInt64>] = []

    func hash(ofRange range: Range<UInt64>) async throws -> [UInt8] {
        ranges.append(range)
        return [UInt8](repeating: 0, count: MerkleHash.byteCount)
    }

    func completeSubtrees() throws -> Set<MerkleNode> {
        var nodes = Set<MerkleNode>()
        for range in ranges {
            for piece in try MerkleTree.completeSubtrees(covering: range) { nodes.insert(MerkleNode(completeRange: piece)) }
        }
        return nodes
    }
}

/// Answers requests from subtree hashes read beforehand.
private struct StoredSubtrees: MerkleSubtreeSource {
    let nodes: [MerkleNode: [UInt8]]
    let log: String

    func hash(ofRange range: Range<UInt64>) async throws -> [UInt8] {
        let hashes = try MerkleTree.completeSubtrees(covering: range).map { piece in
            guard let hash = nodes[MerkleNode(completeRange: piece)] else {
                throw LedgerError(.integrityFailure, "the Merkle tree of log \(log) was read without the subtree \(piece)")
            }
            return hash
        }
        return MerkleTree.combineCompleteSubtrees(hashes)
    }
}
