import Foundation
import LedgerCore
import Testing

/// RFC 9162 proof vectors from transparency-dev/merkle, read at test time from
/// `Tests/Fixtures/third-party/rfc9162/{inclusion,consistency}`: the verifier must accept a
/// vector if and only if its `wantErr` is false. The numbered folders are built
/// from the eight Certificate Transparency test leaves, so the generators are also
/// checked against every happy-path proof there.
@Suite("RFC 9162 proof vectors")
struct MerkleProofVectorTests {
    @Test("every inclusion vector is accepted iff wantErr is false")
    func inclusionVectors() throws {
        let vectors = try loadVectors(InclusionVector.self, from: "inclusion")
        #expect(vectors.count > 0, "no inclusion vectors found")
        var accepted = 0
        for (path, v) in vectors {
            let error = rejection {
                () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyInclusion(
                    leafHash: bytes(v.leafHash), index: v.leafIdx, size: v.treeSize,
                    proof: bytes(v.proof), root: bytes(v.root))
            }
            if error == nil { accepted += 1 }
            #expect((error == nil) == !v.wantErr, "\(path) (\(v.desc)): wantErr \(v.wantErr), got \(error?.reason ?? "accepted")")
        }
        print("RFC 9162 inclusion vectors: \(vectors.count) (\(accepted) accepted, \(vectors.count - accepted) rejected)")
        #expect(accepted > 0 && accepted < vectors.count, "vectors should include both valid and invalid proofs")
    }

    @Test("every consistency vector is accepted iff wantErr is false")
    func consistencyVectors() throws {
        let vectors = try loadVectors(ConsistencyVector.self, from: "consistency")
        #expect(vectors.count > 0, "no consistency vectors found")
        var accepted = 0
        for (path, v) in vectors {
            let error = rejection {
                () throws(MerkleProofError) in
                try MerkleProofVerifier.verifyConsistency(
                    size1: v.size1, size2: v.size2,
                    root1: bytes(v.root1), root2: bytes(v.root2),
                    proof: bytes(v.proof))
            }
            if error == nil { accepted += 1 }
            #expect((error == nil) == !v.wantErr, "\(path) (\(v.desc)): wantErr \(v.wantErr), got \(error?.reason ?? "accepted")")
        }
        print("RFC 9162 consistency vectors: \(vectors.count) (\(accepted) accepted, \(vectors.count - accepted) rejected)")
        #expect(accepted > 0 && accepted < vectors.count, "vectors should include both valid and invalid proofs")
    }

    @Test("generated proofs equal the happy-path vector proofs byte for byte")
    func generatorsMatchHappyPaths() async throws {
        let source = InMemoryMerkleSource(entries: ctLeafInputs)
        var compared = 0
        for (path, v) in try loadVectors(InclusionVector.self, from: "inclusion") where isNumberedHappyPath(path) {
            let leafIndex = try #require(Int(exactly: v.leafIdx))
            #expect(bytes(v.leafHash) == source.leafHashes[leafIndex], "\(path): leaf hash")
            #expect(try await MerkleTree.rootHash(size: v.treeSize, source: source) == bytes(v.root), "\(path): root")
            let proof = try await MerkleTree.inclusionProof(index: v.leafIdx, size: v.treeSize, source: source)
            #expect(proof == bytes(v.proof), "\(path): inclusion proof")
            compared += 1
        }
        for (path, v) in try loadVectors(ConsistencyVector.self, from: "consistency") where isNumberedHappyPath(path) {
            #expect(try await MerkleTree.rootHash(size: v.size1, source: source) == bytes(v.root1), "\(path): root1")
            #expect(try await MerkleTree.rootHash(size: v.size2, source: source) == bytes(v.root2), "\(path): root2")
            let proof = try await MerkleTree.consistencyProof(from: v.size1, to: v.size2, source: source)
            #expect(proof == bytes(v.proof), "\(path): consistency proof")
            compared += 1
        }
        print("RFC 9162 happy-path vectors reproduced by the generators: \(compared)")
        #expect(compared >= 10, "expected the 5 inclusion and 5 consistency happy paths, found \(compared)")
    }

    @Test("leaf, empty and root hashes of the CT test leaves are the published values")
    func knownAnswers() {
        #expect(hex(MerkleHash.emptyRoot) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(MerkleHash.leaf([UInt8]())) == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
        #expect(MerkleTree.root(of: []) == MerkleHash.emptyRoot)
        let leaves = ctLeafInputs.map { MerkleHash.leaf($0) }
        for (size, root) in ctRoots.enumerated() {
            #expect(hex(MerkleTree.root(of: Array(leaves.prefix(size + 1)))) == root, "root of size \(size + 1)")
        }
    }
}

// MARK: - Vector files

/// One file of `rfc9162/inclusion`; byte fields are base64 (JSONDecoder's default
/// for `Data`), `proof` may be null.
private struct InclusionVector: Decodable {
    let leafIdx: UInt64
    let treeSize: UInt64
    let root: Data
    let leafHash: Data
    let proof: [Data]?
    let desc: String
    let wantErr: Bool
}

/// One file of `rfc9162/consistency`; byte fields are base64, `proof` may be null.
private struct ConsistencyVector: Decodable {
    let size1: UInt64
    let size2: UInt64
    let root1: Data
    let root2: Data
    let proof: [Data]?
    let desc: String
    let wantErr: Bool
}

/// Every `*.json` under `rfc9162/<folder>`, sorted by relative path.
private func loadVectors<V: Decodable>(_: V.Type, from folder: String) throws -> [(String, V)] {
    let dir = try TestData.directory("rfc9162/\(folder)")
    guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else {
        throw VectorError("cannot list \(dir.path)")
    }
    var files: [(String, URL)] = []
    for case let url as URL in walker where url.pathExtension == "json" {
        files.append((folder + "/" + url.path.dropFirst(dir.path.count + 1), url))
    }
    return try files.sorted { $0.0 < $1.0 }.map { name, url in
        do {
            return (name, try JSONDecoder().decode(V.self, from: Data(contentsOf: url)))
        } catch {
            throw VectorError("\(name): \(error)")
        }
    }
}

/// `inclusion/3/happy-path.json` and the like, but not the `additional` ones.
private func isNumberedHappyPath(_ path: String) -> Bool {
    let parts = path.split(separator: "/")
    return parts.count == 3 && Int(parts[1]) != nil && parts[2] == "happy-path.json"
}

private struct VectorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private func bytes(_ data: Data) -> [UInt8] {
    [UInt8](data)
}

private func bytes(_ proof: [Data]?) -> [[UInt8]] {
    (proof ?? []).map { [UInt8]($0) }
}

private func rejection(_ body: () throws(MerkleProofError) -> Void) -> MerkleProofError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

// MARK: - Certificate Transparency test leaves (RFC 6962 reference tests)

/// The leaf inputs from which transparency-dev/merkle built the numbered vectors.
private let ctLeafInputs: [[UInt8]] = [
    [],
    [0x00],
    [0x10],
    [0x20, 0x21],
    [0x30, 0x31],
    [0x40, 0x41, 0x42, 0x43],
    [0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57],
    [0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f],
]

/// Their published roots for tree sizes 1 to 8.
private let ctRoots = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
