import Crypto
import LedgerCore
import Logging
import PostgresNIO

/// The stored Merkle nodes over one range of a verification (``RangeCheck``), checked against the
/// leaf hashes the range has just verified: every complete node inside the range is computed in
/// Swift (SHA-256(0x01 || left || right), RFC 9162) and compared with what `ledger.merkle_nodes`
/// holds for it, through one digest the database computes over the same nodes in the same order;
/// only when the digests differ are the stored nodes read one by one, to name the first bad one.
/// The nodes above a range (those that span several) are checked by ``UpperTree``.
struct RangeTree: Sendable {
    /// The range's first position; `first - 1` is a multiple of the range size.
    let first: Int64
    /// The leaf hashes of the range's positions inside the tree, in order.
    var leaves: [Hash32] = []

    init(first: Int64, capacity: Int) {
        self.first = first
        leaves.reserveCapacity(capacity)
    }

    /// The nodes of each level inside the range: `levels[0]` is level 1.
    func levels() -> [[Hash32]] {
        var levels: [[Hash32]] = []
        var below = leaves
        while below.count >= 2 {
            var level: [Hash32] = []
            level.reserveCapacity(below.count / 2)
            for pair in stride(from: 0, to: below.count - 1, by: 2) { level.append(MerkleHash.node(below[pair], below[pair + 1])) }
            levels.append(level)
            below = level
        }
        return levels
    }

    /// Compares `levels` (from ``levels()``) with the stored nodes; returns how many were checked
    /// and the first problem.
    func check(_ levels: [[Hash32]], log: String, on connection: PostgresConnection, logger: Logger) async throws -> (Int64, String?) {
        guard !levels.isEmpty else { return (0, nil) }
        let offset = first - 1
        let numbers = levels.indices.map { Int32($0 + 1) }
        let lows = levels.indices.map { offset >> Int64($0 + 1) }
        let highs = levels.indices.map { offset >> Int64($0 + 1) + Int64(levels[$0].count) - 1 }
        var digest = SHA256()
        for level in levels { for node in level { node.withUnsafeBytes { digest.update(bufferPointer: $0) } } }
        let expected = digest.finalize().withUnsafeBytes { Array($0) }
        let count = Int64(levels.reduce(0) { $0 + $1.count })
        let rows = try await connection.watchedQuery("""
            SELECT count(*), sha256(coalesce(string_agg(n.hash, ''::bytea ORDER BY n.level, n.index), ''::bytea))
              FROM unnest(\(numbers)::int[], \(lows)::bigint[], \(highs)::bigint[]) AS r(level, low, high)
              JOIN ledger.merkle_nodes n ON n.log_id = \(log) AND n.level = r.level AND n.index BETWEEN r.low AND r.high
            """, logger: logger)
        var stored: (Int64, ByteBuffer)?
        for try await row in rows.decode((Int64, ByteBuffer).self) { stored = row }
        if let (storedCount, storedDigest) = stored, storedCount == count, Array(buffer: storedDigest) == expected {
            return (count, nil)
        }
        return (count, try await firstBadNode(levels, lows: lows, highs: highs, log: log, on: connection, logger: logger))
    }

    /// The slow path, after a digest differed: the stored nodes one by one.
    private func firstBadNode(_ levels: [[Hash32]], lows: [Int64], highs: [Int64], log: String,
                              on connection: PostgresConnection, logger: Logger) async throws -> String {
        for (number, level) in levels.enumerated() {
            let height = Int64(number + 1)
            let rows = try await connection.watchedQuery("""
                SELECT index, hash FROM ledger.merkle_nodes
                 WHERE log_id = \(log) AND level = \(Int16(height)) AND index BETWEEN \(lows[number]) AND \(highs[number])
                 ORDER BY index
                """, logger: logger)
            var stored: [Int64: ByteBuffer] = [:]
            for try await (index, hash) in rows.decode((Int64, ByteBuffer).self) { stored[index] = hash }
            for (offset, node) in level.enumerated() {
                let index = lows[number] + Int64(offset)
                let hash = stored[index].map { buffer in buffer.withUnsafeReadableBytes { Hash32($0) } } ?? nil
                if hash != node { return UpperTree.badNode(level: height, index: index, missing: stored[index] == nil) }
            }
        }
        return "the Merkle nodes over positions \(first) to \(first + Int64(leaves.count) - 1) do not match their leaves"
    }
}

/// The nodes of a log's stored Merkle tree that span more than one range of a verification,
/// computed from the ranges' roots, and the number of nodes each level holds (so that a node
/// added beyond the tree's size is found too).
struct UpperTree: Sendable {
    /// The tree's size (leaves whose complete subtrees are all stored).
    let size: Int64
    /// The level of a full range's root: log2 of the range size.
    let rangeLevel: Int

    /// Whether every level holds exactly the nodes of a tree of ``size`` leaves (so that a node
    /// deleted, or added beyond the tree, is named by its level).
    func countProblem(log: String, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        let counts = try await connection.watchedQuery(
            "SELECT level::int, count(*) FROM ledger.merkle_nodes WHERE log_id = \(log) GROUP BY level ORDER BY level", logger: logger)
        var stored: [Int: Int64] = [:]
        for try await (level, count) in counts.decode((Int, Int64).self) { stored[level] = count }
        for level in 1...62 where stored[level, default: 0] != size >> Int64(level) {
            return "the Merkle tree holds \(stored[level, default: 0]) nodes at level \(level), not the \(size >> Int64(level)) of a tree of \(size) leaves"
        }
        return nil
    }

    /// Checks the levels above `rangeLevel` against `roots` (the root of each full range inside
    /// the tree, in order); returns the nodes checked and the first problem.
    func check(roots: [Hash32], log: String, on connection: PostgresConnection, logger: Logger) async throws -> (Int64, String?) {
        var below = roots
        var level = rangeLevel
        var checked: Int64 = 0
        while below.count >= 2 {
            level += 1
            var nodes: [Hash32] = []
            for pair in stride(from: 0, to: below.count - 1, by: 2) { nodes.append(MerkleHash.node(below[pair], below[pair + 1])) }
            let rows = try await connection.watchedQuery("""
                SELECT index, hash FROM ledger.merkle_nodes WHERE log_id = \(log) AND level = \(Int16(level)) ORDER BY index
                """, logger: logger)
            var index: Int64 = 0
            for try await (storedIndex, hash) in rows.decode((Int64, ByteBuffer).self) {
                guard storedIndex == index, index < nodes.count else { break }
                guard hash.withUnsafeReadableBytes({ Hash32($0) }) == nodes[Int(index)] else { break }
                index += 1
            }
            checked += index
            if index < nodes.count { return (checked, Self.badNode(level: Int64(level), index: index, missing: false)) }
            below = nodes
        }
        return (checked, nil)
    }

    /// How a bad node is named (level, index, and the positions it covers).
    static func badNode(level: Int64, index: Int64, missing: Bool) -> String {
        let first = index << level
        return "the Merkle node at level \(level), index \(index) (positions \(first + 1) to \(first + (1 << level))) "
            + (missing ? "is missing" : "does not hash from the level below")
    }
}
