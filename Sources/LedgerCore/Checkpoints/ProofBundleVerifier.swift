import Foundation

/// Checks a ``ProofBundle`` with no database: the checkpoint's signature, the record's hash, its
/// inclusion, and (with a trusted older checkpoint) consistency, in the order docs/proofs.md
/// lists them. tools/verify-proof.py implements the same checks independently.
///
/// ```swift
/// let outcome = try ProofBundleVerifier.verify(bundle, key: key, trusted: olderNote)
/// print(outcome.summary)   // "OK: record at position 7 is leaf 6 of …"
/// ```
public enum ProofBundleVerifier {
    /// What a successful verification established.
    public struct Outcome: Sendable, Equatable {
        /// The verified checkpoint.
        public var checkpoint: Checkpoint
        /// One line, starting `OK`.
        public var summary: String
    }

    /// Verifies `bundle` against `key`, against `trusted` (an older signed checkpoint's note) when
    /// given, and that its checkpoint carries the cosignatures `witnesses` requires. Throws
    /// ``LedgerError`` with code ``LedgerError/Code/checkpointRefused`` naming the first check that
    /// failed.
    public static func verify(_ bundle: ProofBundle, key: NoteVerifierKey, trusted: String? = nil,
                              witnesses: WitnessPolicy = .none) throws(LedgerError) -> Outcome {
        let checkpoint = try Checkpoint.verified(note: bundle.checkpoint, key: key)
        let cosigned = try witnesses.check(try SignedNote(text: bundle.checkpoint))
        guard checkpoint.origin == Checkpoint.origin(keyName: key.name, log: bundle.log) else {
            throw failure("the checkpoint's origin \(checkpoint.origin) is not \(Checkpoint.origin(keyName: key.name, log: bundle.log)), "
                          + "the origin of log \(bundle.log) under this key")
        }
        var said: [String] = []
        if let inclusion = bundle.inclusion {
            try verifyInclusion(inclusion, log: bundle.log, checkpoint: checkpoint)
            said.append("record at position \(inclusion.position) is leaf \(inclusion.leafIndex) of the tree of \(checkpoint.size) leaves")
        }
        if let consistency = bundle.consistency {
            try verifyConsistency(consistency, checkpoint: checkpoint)
            said.append("the tree of \(checkpoint.size) leaves extends the tree of \(consistency.fromSize)")
        }
        if let trusted {
            let older = try Checkpoint.verified(note: trusted, key: key)
            guard older.origin == checkpoint.origin else {
                throw failure("the trusted checkpoint is for \(older.origin), the bundle's for \(checkpoint.origin)")
            }
            if older.size > checkpoint.size {
                throw failure("the trusted checkpoint (size \(older.size)) is newer than the bundle's (size \(checkpoint.size)); ask for a newer proof")
            } else if older.size == checkpoint.size {
                guard older.rootHash == checkpoint.rootHash else {
                    throw failure("the trusted checkpoint and the bundle's have the same size \(older.size) but different roots: the log forked")
                }
            } else {
                guard let consistency = bundle.consistency else {
                    throw failure("the bundle has no consistency proof from the trusted size \(older.size); make it with --since \(older.size)")
                }
                guard consistency.fromSize == older.size, consistency.fromRoot == older.rootHash else {
                    throw failure("the bundle's consistency proof starts from size \(consistency.fromSize), not from the trusted checkpoint "
                                  + "(size \(older.size)), or from another root")
                }
            }
            said.append("consistent with the trusted checkpoint of size \(older.size)")
        }
        let signer = "signed by \(key.name) (key \(NoteKeyID.hex(key.keyID)))"
        return Outcome(checkpoint: checkpoint, summary: "OK: " + (said + [signer] + [cosigned].compactMap { $0 }).joined(separator: "; "))
    }

    private static func verifyInclusion(_ inclusion: ProofBundle.Inclusion, log: String, checkpoint: Checkpoint) throws(LedgerError) {
        guard inclusion.position >= 1, inclusion.leafIndex == inclusion.position - 1 else {
            throw failure("leaf index \(inclusion.leafIndex) is not position \(inclusion.position) minus 1")
        }
        guard inclusion.treeSize == checkpoint.size else {
            throw failure("the inclusion proof is for a tree of \(inclusion.treeSize) leaves, the checkpoint's has \(checkpoint.size)")
        }
        guard inclusion.leafHash == MerkleHash.leaf(inclusion.record) else {
            throw failure("the leaf hash is not SHA-256(0x00 || record): the record was changed")
        }
        guard let record = try? JSONParser.parse(inclusion.record), record["log"]?.stringValue == log,
              record["position"]?.doubleValue == Double(inclusion.position) else {
            throw failure("the record is not the record of log \(log) at position \(inclusion.position)")
        }
        do {
            try MerkleProofVerifier.verifyInclusion(leafHash: inclusion.leafHash, index: inclusion.leafIndex, size: inclusion.treeSize,
                                                    proof: inclusion.path, root: checkpoint.rootHash)
        } catch {
            throw failure(error.reason)
        }
    }

    private static func verifyConsistency(_ consistency: ProofBundle.Consistency, checkpoint: Checkpoint) throws(LedgerError) {
        guard consistency.toSize == checkpoint.size else {
            throw failure("the consistency proof is to a tree of \(consistency.toSize) leaves, the checkpoint's has \(checkpoint.size)")
        }
        do {
            try MerkleProofVerifier.verifyConsistency(size1: consistency.fromSize, size2: consistency.toSize, root1: consistency.fromRoot,
                                                      root2: checkpoint.rootHash, proof: consistency.path)
        } catch {
            throw failure(error.reason)
        }
    }

    private static func failure(_ reason: String) -> LedgerError {
        LedgerError(.checkpointRefused, reason)
    }
}
