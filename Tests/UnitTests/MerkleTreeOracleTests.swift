import Foundation
import LedgerCore
import Testing

/// The proof generators checked against the naive root (`MerkleTree.root`) for
/// every tree of up to `oracleMaxSize` leaves, through a source that refuses any
/// range not of the documented subtree shape; plus RFC 9162's worked example.
@Suite("Merkle tree oracle")
struct MerkleTreeOracleTests {
    @Test("inclusion proofs verify for every index of every tree up to 300; mutations are rejected")
    func inclusionProofsAgainstOracle() async throws {
        var failures: [String] = []
        var checked = 0
        var thorough = 0
        for n in UInt64(1)...UInt64(oracleMaxSize) {
            let source = TableSource(size: n)
            let root = oracleRoots[Int(n)]
            for i in 0..<n {
                let leaf = oracleLeaves[Int(i)]
                let proof = try await MerkleTree.inclusionProof(index: i, size: n, source: source)
                func verify(_ leaf: [UInt8], _ i: UInt64, _ n: UInt64, _ proof: [[UInt8]], _ root: [UInt8]) -> Bool {
                    accepts { () throws(MerkleProofError) in
                        try MerkleProofVerifier.verifyInclusion(leafHash: leaf, index: i, size: n, proof: proof, root: root)
                    }
                }
                let tag = "inclusion i=\(i) n=\(n)"
                checked += 1
                if !verify(leaf, i, n, proof, root) { failures.append("\(tag): valid proof rejected") }
                if proof.count > ceilLog2(n) { failures.append("\(tag): \(proof.count) hashes") }
                // Every proof: one bit flipped in one element (which element and bit vary).
                var mutants: [(String, Bool)] = []
                if !proof.isEmpty {
                    let element = Int((i + n) % UInt64(proof.count))
                    mutants.append(("bit flip in element \(element)",
                                    verify(leaf, i, n, flippingBit(Int(i * 7 + n), ofElement: element, in: proof), root)))
                }
                if thoroughInclusion(i, n) {
                    thorough += 1
                    mutants += [
                        ("index n", verify(leaf, n, n, proof, root)),
                        ("wrong root", verify(leaf, i, n, proof, flipped(root, bit: Int(i + n)))),
                        ("trailing root", verify(leaf, i, n, proof + [root], root)),
                    ]
                    if !proof.isEmpty {
                        mutants.append(("truncated", verify(leaf, i, n, Array(proof.dropLast()), root)))
                    }
                    if n <= 32 {
                        for element in proof.indices {
                            mutants.append(("bit flip in element \(element)",
                                            verify(leaf, i, n, flippingBit(Int(i + n), ofElement: element, in: proof), root)))
                        }
                    }
                    if n > 1 {
                        let other = (i + 1) % n
                        mutants.append(("index \(other)", verify(leaf, other, n, proof, root)))
                        mutants.append(("leaf \(other)", verify(oracleLeaves[Int(other)], i, n, proof, root)))
                    }
                    // A wrong size, with the genuine root of that size.
                    if n < oracleMaxSize {
                        mutants.append(("size n+1", verify(leaf, i, n + 1, proof, oracleRoots[Int(n) + 1])))
                    }
                    if n - 1 > i {
                        mutants.append(("size n-1", verify(leaf, i, n - 1, proof, oracleRoots[Int(n) - 1])))
                    }
                }
                for (what, accepted) in mutants where accepted {
                    failures.append("\(tag): mutation '\(what)' accepted")
                }
            }
        }
        print("inclusion oracle: \(checked) proofs verified and bit-flipped, \(thorough) also mutated in every other way")
        #expect(checked == oracleMaxSize * (oracleMaxSize + 1) / 2)
        #expect(failures.count == 0, "first failures: \(failures.prefix(10))")
    }

    @Test("consistency proofs verify for every 1 <= m <= n <= 300; mutations are rejected")
    func consistencyProofsAgainstOracle() async throws {
        var failures: [String] = []
        var checked = 0
        var thorough = 0
        for n in UInt64(1)...UInt64(oracleMaxSize) {
            let source = TableSource(size: n)
            for m in 1...n {
                let proof = try await MerkleTree.consistencyProof(from: m, to: n, source: source)
                func verify(_ m: UInt64, _ n: UInt64, _ proof: [[UInt8]], _ root1: [UInt8]? = nil, _ root2: [UInt8]? = nil) -> Bool {
                    accepts { () throws(MerkleProofError) in
                        try MerkleProofVerifier.verifyConsistency(
                            size1: m, size2: n,
                            root1: root1 ?? oracleRoots[Int(m)], root2: root2 ?? oracleRoots[Int(n)],
                            proof: proof)
                    }
                }
                let tag = "consistency m=\(m) n=\(n)"
                checked += 1
                if !verify(m, n, proof) { failures.append("\(tag): valid proof rejected") }
                if m == n ? !proof.isEmpty : proof.count > ceilLog2(n) + 1 {
                    failures.append("\(tag): \(proof.count) hashes")
                }
                let root1 = oracleRoots[Int(m)]
                let root2 = oracleRoots[Int(n)]
                // Every proof: one bit flipped in one element (which element and bit vary).
                var mutants: [(String, Bool)] = []
                if m < n {
                    let element = Int((m + n) % UInt64(proof.count))
                    mutants.append(("bit flip in element \(element)",
                                    verify(m, n, flippingBit(Int(m * 5 + n), ofElement: element, in: proof))))
                }
                if thoroughConsistency(m, n) {
                    thorough += 1
                    mutants += [
                        ("wrong root1", verify(m, n, proof, flipped(root1, bit: Int(m + n)))),
                        ("wrong root2", verify(m, n, proof, root1, flipped(root2, bit: Int(m * 3 + n)))),
                        ("trailing root2", verify(m, n, proof + [root2])),
                        ("preceding root1", verify(m, n, [root1] + proof)),
                        ("size1 m-1", verify(m - 1, n, proof)),
                    ]
                    // Wrong sizes, each with the genuine root of that size.
                    if m < n { mutants.append(("size1 m+1", verify(m + 1, n, proof))) }
                    if n < oracleMaxSize { mutants.append(("size2 n+1", verify(m, n + 1, proof))) }
                    if n - 1 >= m && n > 1 { mutants.append(("size2 n-1", verify(m, n - 1, proof))) }
                    if m < n {
                        mutants.append(("swapped roots", verify(m, n, proof, root2, root1)))
                        mutants.append(("empty proof", verify(m, n, [])))
                        mutants.append(("truncated", verify(m, n, Array(proof.dropLast()))))
                    }
                    if n <= 32 {
                        for element in proof.indices {
                            mutants.append(("bit flip in element \(element)",
                                            verify(m, n, flippingBit(Int(m + n), ofElement: element, in: proof))))
                        }
                    }
                }
                for (what, accepted) in mutants where accepted {
                    failures.append("\(tag): mutation '\(what)' accepted")
                }
            }
        }
        print("consistency oracle: \(checked) proofs verified and bit-flipped, \(thorough) also mutated in every other way")
        #expect(checked == oracleMaxSize * (oracleMaxSize + 1) / 2)
        #expect(failures.count == 0, "first failures: \(failures.prefix(10))")
    }

    @Test("generators make one read per proof element, all subtree-shaped")
    func readsPerProof() async throws {
        for n in [UInt64(1), 2, 3, 7, 8, 9, 100, 255, 256, 257, 300] {
            for i in Set([0, n / 2, n - 1]) {
                let recorder = RecordingSource(TableSource(size: n))
                let proof = try await MerkleTree.inclusionProof(index: i, size: n, source: recorder)
                #expect(recorder.requests.count == proof.count, "inclusion i=\(i) n=\(n)")
                #expect(recorder.requests.allSatisfy(MerkleTree.isSubtreeRange))
            }
            for m in Set([1, n / 2, n - 1, n]) where m >= 1 {
                let recorder = RecordingSource(TableSource(size: n))
                let proof = try await MerkleTree.consistencyProof(from: m, to: n, source: recorder)
                #expect(recorder.requests.count == proof.count, "consistency m=\(m) n=\(n)")
            }
            let recorder = RecordingSource(TableSource(size: n))
            _ = try await MerkleTree.rootHash(size: n, source: recorder)
            #expect(recorder.requests == [0..<n])
        }
        let empty = RecordingSource(TableSource(size: 0))
        #expect(try await MerkleTree.rootHash(size: 0, source: empty) == MerkleHash.emptyRoot)
        #expect(empty.requests.isEmpty)
    }

    @Test("generators refuse proofs that do not exist")
    func generatorArgumentErrors() async throws {
        let source = TableSource(size: 8)
        await #expect(throws: MerkleProofError.self) { try await MerkleTree.inclusionProof(index: 8, size: 8, source: source) }
        await #expect(throws: MerkleProofError.self) { try await MerkleTree.inclusionProof(index: 0, size: 0, source: source) }
        await #expect(throws: MerkleProofError.self) { try await MerkleTree.consistencyProof(from: 0, to: 8, source: source) }
        await #expect(throws: MerkleProofError.self) { try await MerkleTree.consistencyProof(from: 0, to: 0, source: source) }
        await #expect(throws: MerkleProofError.self) { try await MerkleTree.consistencyProof(from: 5, to: 4, source: source) }
        #expect(try await MerkleTree.consistencyProof(from: 8, to: 8, source: source) == [])
    }

    @Test("InMemoryMerkleSource and the subtree helpers agree with the naive root")
    func inMemorySource() async throws {
        let source = InMemoryMerkleSource(leafHashes: oracleLeaves)
        for n in 1...oracleMaxSize {
            #expect(try await MerkleTree.rootHash(size: UInt64(n), source: source) == oracleRoots[n], "size \(n)")
        }
        for (range, hash) in subtreeTable {
            #expect(try await source.hash(ofRange: range) == hash, "\(range)")
            #expect(MerkleTree.isSubtreeRange(range), "\(range)")
        }
        for bad: Range<UInt64> in [0..<0, 1..<3, 2..<5, 4..<9, 3..<5, 0..<301] {
            await #expect(throws: (any Error).self, "\(bad)") { try await source.hash(ofRange: bad) }
        }
        for bad: Range<UInt64> in [0..<0, 1..<3, 2..<5, 4..<9, 3..<5, 6..<9] {
            #expect(!MerkleTree.isSubtreeRange(bad), "\(bad)")
        }
        #expect(try MerkleTree.completeSubtrees(covering: 8..<15) == [8..<12, 12..<14, 14..<15])
        #expect(try MerkleTree.completeSubtrees(covering: 256..<300) == [256..<288, 288..<296, 296..<300])
        #expect(try MerkleTree.completeSubtrees(covering: 64..<128) == [64..<128])
        #expect(MerkleTree.isSubtreeRange(0..<UInt64.max))
        #expect(!MerkleTree.isSubtreeRange(1..<UInt64.max))
        #expect(throws: MerkleProofError.self) { try MerkleTree.completeSubtrees(covering: 2..<5) }
        // Proofs read through InMemoryMerkleSource verify too (a few, it is naive).
        for (i, n) in [(UInt64(0), UInt64(1)), (5, 7), (99, 100), (150, 300)] {
            let proof = try await MerkleTree.inclusionProof(index: i, size: n, source: source)
            try MerkleProofVerifier.verifyInclusion(leafHash: oracleLeaves[Int(i)], index: i, size: n, proof: proof, root: oracleRoots[Int(n)])
        }
        let proof = try await MerkleTree.consistencyProof(from: 129, to: 300, source: source)
        try MerkleProofVerifier.verifyConsistency(size1: 129, size2: 300, root1: oracleRoots[129], root2: oracleRoots[300], proof: proof)
    }

    @Test("RFC 9162 section 2.1.5: the 7-leaf example's proofs")
    func rfcExample() async throws {
        let leaves = (0..<7).map { MerkleHash.leaf(Array("d\($0)".utf8)) }
        let (a, b, c, d, e, f, j) = (leaves[0], leaves[1], leaves[2], leaves[3], leaves[4], leaves[5], leaves[6])
        let g = MerkleHash.node(a, b), h = MerkleHash.node(c, d), i = MerkleHash.node(e, f)
        let k = MerkleHash.node(g, h), l = MerkleHash.node(i, j)
        let hash = MerkleHash.node(k, l)
        let hash0 = MerkleHash.node(g, c), hash1 = k, hash2 = MerkleHash.node(k, i)
        let source = InMemoryMerkleSource(leafHashes: leaves)

        #expect(MerkleTree.root(of: leaves) == hash)
        for (size, root) in [(UInt64(3), hash0), (4, hash1), (6, hash2), (7, hash)] {
            #expect(try await MerkleTree.rootHash(size: size, source: source) == root, "root of \(size)")
        }
        for (index, path) in [(UInt64(0), [b, h, l]), (3, [c, g, l]), (4, [f, j, k]), (6, [i, k])] {
            let proof = try await MerkleTree.inclusionProof(index: index, size: 7, source: source)
            #expect(proof == path, "inclusion proof for d\(index)")
            try MerkleProofVerifier.verifyInclusion(leafHash: leaves[Int(index)], index: index, size: 7, proof: path, root: hash)
        }
        for (m, oldRoot, path) in [(UInt64(3), hash0, [c, d, g, l]), (4, hash1, [l]), (6, hash2, [i, j, k])] {
            let proof = try await MerkleTree.consistencyProof(from: m, to: 7, source: source)
            #expect(proof == path, "PROOF(\(m), D[7])")
            try MerkleProofVerifier.verifyConsistency(size1: m, size2: 7, root1: oldRoot, root2: hash, proof: path)
        }
    }

    @Test("the size is bound by the root, not by the proof")
    func sizeIsAuthenticatedByTheRoot() throws {
        // PATH(0, D[5]) = [b, c+d, e] and PATH(0, D[6]) = [b, c+d, e+f] have the same
        // shape, so the 5-leaf proof and root pass under size 6: a verifier must take
        // size and root from the same signed tree head. With the real root of 6 it fails.
        let leaves = Array(oracleLeaves.prefix(6))
        let proof5 = [leaves[1], MerkleHash.node(leaves[2], leaves[3]), leaves[4]]
        try MerkleProofVerifier.verifyInclusion(leafHash: leaves[0], index: 0, size: 5, proof: proof5, root: oracleRoots[5])
        try MerkleProofVerifier.verifyInclusion(leafHash: leaves[0], index: 0, size: 6, proof: proof5, root: oracleRoots[5])
        #expect(throws: MerkleProofError.self) {
            try MerkleProofVerifier.verifyInclusion(leafHash: leaves[0], index: 0, size: 6, proof: proof5, root: oracleRoots[6])
        }
    }

    @Test("errors say why")
    func errorReasons() {
        let root = oracleRoots[4]
        let cases: [(MerkleProofError?, String)] = [
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyInclusion(leafHash: oracleLeaves[0], index: 4, size: 4, proof: [], root: root)
            }, "not less than tree size"),
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyInclusion(leafHash: oracleLeaves[0], index: 0, size: 4, proof: [[1, 2]], root: root)
            }, "2 bytes"),
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyInclusion(leafHash: oracleLeaves[0], index: 0, size: 4, proof: [root], root: root)
            }, "fewer"),
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyConsistency(size1: 5, size2: 4, root1: root, root2: root, proof: [])
            }, "greater than"),
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyConsistency(size1: 0, size2: 4, root1: MerkleHash.emptyRoot, root2: root, proof: [])
            }, "empty tree"),
            (rejection { () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyConsistency(size1: 4, size2: 4, root1: root, root2: oracleRoots[3], proof: [])
            }, "roots differ"),
        ]
        for (error, phrase) in cases {
            #expect(error?.reason.contains(phrase) == true, "expected '\(phrase)' in \(String(describing: error))")
            #expect(error?.description.hasPrefix("Merkle proof error: ") == true)
        }
    }
}

// MARK: - Oracle data

private let oracleMaxSize = 300

private let oracleLeaves: [[UInt8]] = (0..<oracleMaxSize).map { MerkleHash.leaf(Array("entry \($0)".utf8)) }

/// `oracleRoots[n]` is the naive root of the first `n` leaves.
private let oracleRoots: [[UInt8]] = (0...oracleMaxSize).map { MerkleTree.root(of: Array(oracleLeaves.prefix($0))) }

/// The naive hash of every range `[j * 2^h, e)` with `j * 2^h < e <= min((j + 1) * 2^h, 300)`:
/// exactly the ranges the generators may ask for in trees of up to 300 leaves.
private let subtreeTable: [Range<UInt64>: [UInt8]] = {
    var table: [Range<UInt64>: [UInt8]] = [:]
    var span = 1
    while span / 2 < oracleMaxSize {
        for start in stride(from: 0, to: oracleMaxSize, by: span) {
            for end in (start + 1)...min(start + span, oracleMaxSize) {
                table[UInt64(start)..<UInt64(end)] = MerkleTree.root(of: Array(oracleLeaves[start..<end]))
            }
        }
        span *= 2
    }
    return table
}()

/// Answers from `subtreeTable` for the tree of `size` leaves, and throws for any
/// range the protocol says is never asked for: not a complete aligned power-of-two
/// subtree below `size`, nor an aligned right-edge subtree ending at `size`.
private struct TableSource: MerkleSubtreeSource {
    let size: UInt64

    struct UnexpectedRange: Error {
        let range: Range<UInt64>
        let size: UInt64
    }

    func hash(ofRange range: Range<UInt64>) async throws -> [UInt8] {
        let length = range.upperBound - range.lowerBound
        var span: UInt64 = 1
        while span < length { span *= 2 }
        let complete = length == span && range.upperBound <= size
        let rightEdge = range.upperBound == size
        guard length > 0, range.lowerBound % span == 0, complete || rightEdge,
              let hash = subtreeTable[range] else {
            throw UnexpectedRange(range: range, size: size)
        }
        return hash
    }
}

/// Passes reads through and records them.
private final class RecordingSource: MerkleSubtreeSource {
    let inner: TableSource
    var requests: [Range<UInt64>] = []

    init(_ inner: TableSource) { self.inner = inner }

    func hash(ofRange range: Range<UInt64>) async throws -> [UInt8] {
        requests.append(range)
        return try await inner.hash(ofRange: range)
    }
}

/// Which inclusion proofs get every mutation, not just a bit flip: all in trees of
/// up to 64 leaves, the first and last leaf of every tree, and a spread of others.
/// (Every mutation of every proof takes about 17 s in a debug build: SHA-256 costs
/// about 3 us there.)
private func thoroughInclusion(_ i: UInt64, _ n: UInt64) -> Bool {
    n <= 64 || i == 0 || i == n - 1 || (i * 7 + n) % 11 == 0
}

/// Which consistency proofs get every mutation, not just a bit flip: all in trees
/// of up to 32 leaves, m = 1, m = n - 1, m = n, and a spread of others. (Every
/// mutation of all 45,150 pairs takes about 20 s in a debug build.)
private func thoroughConsistency(_ m: UInt64, _ n: UInt64) -> Bool {
    n <= 32 || m == 1 || m + 1 >= n || (m * 7 + n) % 13 == 0
}

private func flippingBit(_ bit: Int, ofElement element: Int, in proof: [[UInt8]]) -> [[UInt8]] {
    var copy = proof
    copy[element] = flipped(copy[element], bit: bit)
    return copy
}

private func ceilLog2(_ n: UInt64) -> Int {
    n <= 1 ? 0 : 64 - (n - 1).leadingZeroBitCount
}

private func flipped(_ bytes: [UInt8], bit: Int) -> [UInt8] {
    var copy = bytes
    let position = bit % (copy.count * 8)
    copy[position / 8] ^= UInt8(1) << (position % 8)
    return copy
}

private func accepts(_ body: () throws(MerkleProofError) -> Void) -> Bool {
    rejection(body) == nil
}

private func rejection(_ body: () throws(MerkleProofError) -> Void) -> MerkleProofError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
