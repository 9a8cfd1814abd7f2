/// Verifies RFC 9162 inclusion and consistency proofs, using the algorithms of
/// sections 2.1.3.2 and 2.1.4.2 step for step.
///
/// Both functions return normally when the proof holds and throw a
/// ``MerkleProofError`` saying why when it does not. Every proof element and the
/// leaf hash must be ``MerkleHash/byteCount`` bytes long. Roots are compared byte
/// for byte: one of the wrong length never matches a computed hash, and when
/// `size1 == size2` a consistency check only compares the two roots given.
public enum MerkleProofVerifier {
    /// Verifies that `leafHash` is leaf `index` of the tree of `size` leaves
    /// whose root is `root`, given the inclusion proof `proof` (RFC 9162 2.1.3.2).
    ///
    /// Rejects `index >= size` (so every proof for the empty tree), a leaf hash
    /// that is not ``MerkleHash/byteCount`` bytes, a proof of the wrong length for
    /// `index` and `size`, and a proof that leads to another root.
    public static func verifyInclusion(
        leafHash: [UInt8],
        index: UInt64,
        size: UInt64,
        proof: [[UInt8]],
        root: [UInt8]
    ) throws(MerkleProofError) {
        // Step 1.
        guard index < size else {
            throw MerkleProofError("leaf index \(index) is not less than tree size \(size)")
        }
        guard leafHash.count == MerkleHash.byteCount else {
            throw MerkleProofError("leaf hash is \(leafHash.count) bytes, not \(MerkleHash.byteCount)")
        }
        try checkElementLengths(proof)
        // Steps 2 and 3.
        var fn = index
        var sn = size - 1
        var r = leafHash
        // Step 4.
        for p in proof {
            guard sn != 0 else {
                throw MerkleProofError("inclusion proof has \(proof.count) hashes, more than leaf \(index) of a tree of size \(size) needs")
            }
            if fn & 1 == 1 || fn == sn {
                r = MerkleHash.node(p, r)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                r = MerkleHash.node(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        // Step 5.
        guard sn == 0 else {
            throw MerkleProofError("inclusion proof has \(proof.count) hashes, fewer than leaf \(index) of a tree of size \(size) needs")
        }
        guard r == root else {
            throw MerkleProofError("inclusion proof for leaf \(index) of a tree of size \(size) leads to a different root")
        }
    }

    /// Verifies that the tree of `size2` leaves with root `root2` extends the tree
    /// of `size1` leaves with root `root1`, given the consistency proof `proof`
    /// (RFC 9162 2.1.4.2).
    ///
    /// Edge cases, as RFC 9162 defines proofs only for `0 < size1 < size2`:
    /// - `size1 > size2` is rejected;
    /// - `size1 == 0` is rejected, even with `size2 == 0` (every tree extends the
    ///   empty one, so there is nothing to prove and a caller must not rely on it);
    /// - `size1 == size2` holds if and only if the proof is empty and the roots are equal;
    /// - otherwise an empty proof, a proof of the wrong length, or one that leads
    ///   to either root being different is rejected.
    public static func verifyConsistency(
        size1: UInt64,
        size2: UInt64,
        root1: [UInt8],
        root2: [UInt8],
        proof: [[UInt8]]
    ) throws(MerkleProofError) {
        guard size1 <= size2 else {
            throw MerkleProofError("size1 \(size1) is greater than size2 \(size2)")
        }
        guard size1 > 0 else {
            throw MerkleProofError("consistency with the empty tree (size1 = 0) is not verifiable")
        }
        if size1 == size2 {
            guard proof.isEmpty else {
                throw MerkleProofError("sizes are equal (\(size1)) but the proof is not empty")
            }
            guard root1 == root2 else {
                throw MerkleProofError("sizes are equal (\(size1)) but the roots differ")
            }
            return
        }
        // Step 1.
        guard !proof.isEmpty else {
            throw MerkleProofError("consistency proof from size \(size1) to \(size2) is empty")
        }
        try checkElementLengths(proof)
        // Step 2.
        let path = size1 & (size1 - 1) == 0 ? [root1] + proof : proof
        // Steps 3 and 4.
        var fn = size1 - 1
        var sn = size2 - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        // Step 5.
        var fr = path[0]
        var sr = path[0]
        // Step 6.
        for c in path.dropFirst() {
            guard sn != 0 else {
                throw MerkleProofError("consistency proof has \(proof.count) hashes, more than sizes \(size1) to \(size2) need")
            }
            if fn & 1 == 1 || fn == sn {
                fr = MerkleHash.node(c, fr)
                sr = MerkleHash.node(c, sr)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                sr = MerkleHash.node(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        // Step 7.
        guard sn == 0 else {
            throw MerkleProofError("consistency proof has \(proof.count) hashes, fewer than sizes \(size1) to \(size2) need")
        }
        guard fr == root1 else {
            throw MerkleProofError("consistency proof from size \(size1) to \(size2) does not lead to root1")
        }
        guard sr == root2 else {
            throw MerkleProofError("consistency proof from size \(size1) to \(size2) does not lead to root2")
        }
    }

    private static func checkElementLengths(_ proof: [[UInt8]]) throws(MerkleProofError) {
        if let bad = proof.firstIndex(where: { $0.count != MerkleHash.byteCount }) {
            throw MerkleProofError("proof element \(bad) is \(proof[bad].count) bytes, not \(MerkleHash.byteCount)")
        }
    }
}
