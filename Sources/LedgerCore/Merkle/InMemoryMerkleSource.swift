import Foundation

/// A ``MerkleSubtreeSource`` over leaf hashes held in memory.
///
/// It answers the way a database that stores only complete power-of-two
/// subtrees would: it accepts only ranges of the documented subtree shape,
/// splits each into complete subtrees and combines their hashes. Each complete
/// subtree is hashed naively, so one read costs O(length of the range) hashes.
public struct InMemoryMerkleSource: MerkleSubtreeSource, Sendable {
    /// The leaf hashes, in log order; the tree of size `n` is the first `n`.
    public let leafHashes: [[UInt8]]

    /// Creates a source over the given leaf hashes.
    public init(leafHashes: [[UInt8]]) {
        self.leafHashes = leafHashes
    }

    /// Creates a source over the leaf hashes of the given entries.
    public init<Entry: DataProtocol>(entries: some Sequence<Entry>) {
        self.leafHashes = entries.map { MerkleHash.leaf($0) }
    }

    /// The number of leaves held.
    public var size: UInt64 { UInt64(leafHashes.count) }

    /// Returns `MTH(D[range])`; throws ``MerkleProofError`` if `range` goes past
    /// the leaves held or is not a subtree range (see ``MerkleSubtreeSource``).
    public func hash(ofRange range: Range<UInt64>) async throws -> [UInt8] {
        guard range.upperBound <= size else {
            throw MerkleProofError("range \(range) goes past the \(size) leaves held")
        }
        let pieces = try MerkleTree.completeSubtrees(covering: range)
        return MerkleTree.combineCompleteSubtrees(pieces.map { piece in
            MerkleTree.root(of: Array(leafHashes[Int(piece.lowerBound)..<Int(piece.upperBound)]))
        })
    }
}
