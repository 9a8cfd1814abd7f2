import Foundation
import LedgerCore

/// A small log's records, its in-memory tree and a signing key, for building bundles in tests.
struct ProofBundleFixture {
    let log = "acme"
    let key: NoteSigningKey
    let records: [[UInt8]]
    let leaves: [[UInt8]]

    init(size: Int, keyName: String = "ledger.example.com") throws {
        key = try NoteSigningKey(generatingWithName: keyName)
        records = (1...size).map { position in
            CanonicalJSON.encode(["event": ["type": "AgeRangeShared"], "log": "acme", "position": .number(Double(position)),
                                  "recordedAt": "2026-11-23T10:00:00.000000Z", "streamVersion": 1])
        }
        leaves = records.map { MerkleHash.leaf($0) }
    }

    var source: InMemoryMerkleSource { InMemoryMerkleSource(leafHashes: leaves) }

    /// The signed checkpoint of the first `size` leaves.
    func checkpoint(size: Int, signer: NoteSigningKey? = nil) throws -> String {
        let signer = signer ?? key
        let body = Checkpoint(origin: Checkpoint.origin(keyName: signer.name, log: log), size: UInt64(size),
                              rootHash: MerkleTree.root(of: Array(leaves.prefix(size)))).body
        return try SignedNote.sign(body: body, with: signer).text
    }

    /// An inclusion bundle for `position` against the checkpoint of `size`, with a consistency
    /// proof from `since` when given.
    func inclusion(position: Int, size: Int, since: Int? = nil) async throws -> ProofBundle {
        let path = try await MerkleTree.inclusionProof(index: UInt64(position - 1), size: UInt64(size), source: source)
        let inclusion = ProofBundle.Inclusion(position: UInt64(position), leafIndex: UInt64(position - 1), treeSize: UInt64(size),
                                              record: records[position - 1], leafHash: leaves[position - 1], path: path)
        var consistency: ProofBundle.Consistency?
        if let since { consistency = try await self.consistency(from: since, to: size) }
        return ProofBundle(kind: .inclusion, log: log, checkpoint: try checkpoint(size: size), inclusion: inclusion, consistency: consistency)
    }

    /// A consistency bundle from `from` to the checkpoint of `to`.
    func consistencyBundle(from: Int, to: Int) async throws -> ProofBundle {
        ProofBundle(kind: .consistency, log: log, checkpoint: try checkpoint(size: to), consistency: try await consistency(from: from, to: to))
    }

    func consistency(from: Int, to: Int) async throws -> ProofBundle.Consistency {
        ProofBundle.Consistency(fromSize: UInt64(from), fromRoot: MerkleTree.root(of: Array(leaves.prefix(from))), toSize: UInt64(to),
                                path: try await MerkleTree.consistencyProof(from: UInt64(from), to: UInt64(to), source: source))
    }
}
