/// Where the proof generators of ``MerkleTree`` read subtree hashes from.
///
/// A conforming type answers one question: what is `MTH(D[range])`, the RFC 9162
/// Merkle Tree Hash of the leaves whose indices lie in `range`?
///
/// ## Which ranges are asked for
///
/// The generators only ask for nodes of the RFC 9162 tree of the size they were
/// given (`size` for ``MerkleTree/inclusionProof(index:size:source:)`` and
/// ``MerkleTree/rootHash(size:source:)``, `n` for
/// ``MerkleTree/consistencyProof(from:to:source:)``). Every such node is a range
///
///     [j * 2^h, min((j + 1) * 2^h, size))      for some h >= 0, j >= 0
///
/// that is never empty, so it is exactly one of:
///
/// - a **complete subtree**: it starts at a multiple of its length, and its length
///   is a power of two (`[j * 2^h, (j + 1) * 2^h)`, entirely below `size`); or
/// - the **right-edge subtree** of that level: it starts at `j * 2^h`, ends at
///   `size`, and is shorter than `2^h` (its length need not be a power of two).
///   At most one such range per level exists for a given `size`.
///
/// ``MerkleTree/isSubtreeRange(_:)`` tests the shape (without knowing `size`).
/// An empty range is never asked for (the empty tree's root is
/// ``MerkleHash/emptyRoot`` and is returned without asking). Each proof element
/// costs exactly one request: an inclusion proof makes at most `ceil(log2(size))`
/// requests, a consistency proof at most `ceil(log2(n)) + 1`, a root one.
///
/// A store that keeps only complete power-of-two subtrees can answer a
/// right-edge range by splitting it with
/// ``MerkleTree/completeSubtrees(covering:)`` and folding the hashes of the
/// pieces with ``MerkleTree/combineCompleteSubtrees(_:)``.
public protocol MerkleSubtreeSource {
    /// Returns `MTH(D[range])`, the Merkle Tree Hash of the leaves in `range`.
    ///
    /// `range` is never empty and always has the shape described on the protocol.
    func hash(ofRange range: Range<UInt64>) async throws -> [UInt8]
}

extension MerkleTree {
    /// Whether `range` has the shape of a subtree that a generator may ask a
    /// ``MerkleSubtreeSource`` for: not empty, and its start is a multiple of the
    /// smallest power of two that is at least its length.
    public static func isSubtreeRange(_ range: Range<UInt64>) -> Bool {
        guard !range.isEmpty else { return false }
        let length = range.upperBound - range.lowerBound
        let span = ceilingPowerOfTwo(length)
        return span == 0 ? range.lowerBound == 0 : range.lowerBound % span == 0
    }

    /// Splits a subtree range into the complete power-of-two subtrees that make
    /// it up, left to right and so largest first (one per set bit of its length).
    ///
    /// A complete subtree comes back as itself. Throws if `range` does not pass
    /// ``isSubtreeRange(_:)``.
    public static func completeSubtrees(
        covering range: Range<UInt64>
    ) throws(MerkleProofError) -> [Range<UInt64>] {
        guard isSubtreeRange(range) else {
            throw MerkleProofError("range \(range) is not a subtree range: it must be non-empty and start at a multiple of the smallest power of two at least its length")
        }
        var pieces: [Range<UInt64>] = []
        var start = range.lowerBound
        while start < range.upperBound {
            let remaining = range.upperBound - start
            let piece = UInt64(1) << (63 - remaining.leadingZeroBitCount)
            pieces.append(start..<(start + piece))
            start += piece
        }
        return pieces
    }

    /// Combines the hashes of the pieces returned by
    /// ``completeSubtrees(covering:)``, in that order, into the hash of the whole
    /// range: `node(h0, node(h1, ... node(h(k-1), hk)))`, which is how RFC 9162
    /// splits a tree whose size is not a power of two.
    ///
    /// - Precondition: `hashes` is not empty.
    public static func combineCompleteSubtrees(_ hashes: [[UInt8]]) -> [UInt8] {
        precondition(!hashes.isEmpty, "a subtree has at least one piece")
        var result = hashes[hashes.count - 1]
        for hash in hashes.dropLast().reversed() {
            result = MerkleHash.node(hash, result)
        }
        return result
    }

    /// The smallest power of two that is at least `n` (1 for 0 and 1), or 0 if
    /// that does not fit in 64 bits.
    static func ceilingPowerOfTwo(_ n: UInt64) -> UInt64 {
        guard n > 1 else { return 1 }
        let shift = 64 - (n - 1).leadingZeroBitCount
        return shift >= 64 ? 0 : UInt64(1) << shift
    }

    /// The largest power of two strictly smaller than `n`: RFC 9162's split point `k`.
    static func splitPoint(_ n: UInt64) -> UInt64 {
        precondition(n >= 2, "only a tree of two or more leaves is split")
        return UInt64(1) << (63 - (n - 1).leadingZeroBitCount)
    }
}
