/// The RFC 9162 (RFC 6962) Merkle tree: a naive root computation, and proof
/// generators that read subtree hashes from a ``MerkleSubtreeSource``.
///
/// For n > 1 leaves, `MTH(D[n]) = node(MTH(D[0:k]), MTH(D[k:n]))` where `k` is
/// the largest power of two smaller than `n`; `MTH({d}) = leaf(d)` and the empty
/// tree's hash is ``MerkleHash/emptyRoot``.
public enum MerkleTree {
    /// The Merkle Tree Hash of a list of leaf hashes, computed naively by the
    /// RFC 9162 recursion (O(n) hashes). Meant for small trees and as a test oracle.
    public static func root(of leafHashes: [[UInt8]]) -> [UInt8] {
        leafHashes.isEmpty ? MerkleHash.emptyRoot : mth(leafHashes[...])
    }

    private static func mth(_ leaves: ArraySlice<[UInt8]>) -> [UInt8] {
        if leaves.count == 1 { return leaves[leaves.startIndex] }
        let k = Int(splitPoint(UInt64(leaves.count)))
        return MerkleHash.node(mth(leaves.prefix(k)), mth(leaves.dropFirst(k)))
    }

    /// The root hash of the tree of the first `size` leaves: one read of
    /// `0..<size`, or ``MerkleHash/emptyRoot`` without a read when `size` is 0.
    public static func rootHash(size: UInt64, source: some MerkleSubtreeSource) async throws -> [UInt8] {
        size == 0 ? MerkleHash.emptyRoot : try await source.hash(ofRange: 0..<size)
    }

    /// The inclusion proof (audit path) of leaf `index` in the tree of the first
    /// `size` leaves: RFC 9162 section 2.1.3.1's `PATH(index, D[size])`, the
    /// sibling nearest the leaf first.
    ///
    /// Makes one ``MerkleSubtreeSource`` read per element, at most
    /// `ceil(log2(size))`. Throws ``MerkleProofError`` if `index >= size`.
    public static func inclusionProof(
        index: UInt64,
        size: UInt64,
        source: some MerkleSubtreeSource
    ) async throws -> [[UInt8]] {
        guard index < size else {
            throw MerkleProofError("no inclusion proof for leaf index \(index): the tree has \(size) leaves")
        }
        // Walk down from the root; the sibling of each node on the way is one element.
        var siblings: [[UInt8]] = []
        var low: UInt64 = 0
        var high = size
        while high - low > 1 {
            let mid = low + splitPoint(high - low)
            if index < mid {
                siblings.append(try await source.hash(ofRange: mid..<high))
                high = mid
            } else {
                siblings.append(try await source.hash(ofRange: low..<mid))
                low = mid
            }
        }
        return siblings.reversed()
    }

    /// The consistency proof between the trees of the first `m` and the first `n`
    /// leaves: RFC 9162 section 2.1.4.1's `PROOF(m, D[n])`, or `[]` when `m == n`.
    ///
    /// Makes one ``MerkleSubtreeSource`` read per element, at most
    /// `ceil(log2(n)) + 1`. Throws ``MerkleProofError`` if `m == 0` (RFC 9162
    /// defines no proof from the empty tree, and the verifier rejects one) or `m > n`.
    public static func consistencyProof(
        from m: UInt64,
        to n: UInt64,
        source: some MerkleSubtreeSource
    ) async throws -> [[UInt8]] {
        guard m <= n else {
            throw MerkleProofError("no consistency proof from size \(m) to the smaller size \(n)")
        }
        guard m > 0 else {
            throw MerkleProofError("no consistency proof from the empty tree (size 0)")
        }
        // SUBPROOF(m, D[low:high], complete) unrolled, top level first.
        var elements: [[UInt8]] = []
        var low: UInt64 = 0
        var high = n
        var remaining = m
        // RFC's b: whether the node reached is the old tree itself, whose root the verifier has.
        var nodeIsOldTree = true
        while remaining < high - low {
            let k = splitPoint(high - low)
            if remaining <= k {
                elements.append(try await source.hash(ofRange: (low + k)..<high))
                high = low + k
            } else {
                elements.append(try await source.hash(ofRange: low..<(low + k)))
                low += k
                remaining -= k
                nodeIsOldTree = false
            }
        }
        if !nodeIsOldTree {
            elements.append(try await source.hash(ofRange: low..<high))
        }
        return elements.reversed()
    }
}
