import Foundation

/// A signed checkpoint as `ledger.checkpoints` holds it.
public struct StoredCheckpoint: Sendable, Equatable {
    /// The log id.
    public var log: String
    /// The tree size it commits to.
    public var treeSize: UInt64
    /// The root hash of that tree.
    public var rootHash: [UInt8]
    /// The log's chain hash at position `treeSize`.
    public var chainHash: [UInt8]
    /// The checkpoint's origin line.
    public var origin: String
    /// The signing key's name.
    public var keyName: String
    /// The signing key's id.
    public var keyID: UInt32
    /// The public key that signed it (verifier-key text).
    public var verifierKey: String
    /// The signed note, exactly as the ledger signed it (its own signature line only).
    public var note: String
    /// When it was recorded (UTC, RFC 3339 with microseconds).
    public var signedAt: String
    /// Witnesses' cosignature lines stored for it (`CheckpointStore.addCosignatures`),
    /// in the order they were stored, each ending in a newline.
    public var cosignatures: [String] = []

    /// The note as served (`GET …/checkpoint`, proof bundles, `checkpoint`): the ledger's note
    /// followed by the witnesses' cosignature lines.
    public var published: String { note + cosignatures.joined() }

    /// As printed in reports: what it commits to, who signed it, when, and the note itself.
    public var json: JSONValue {
        ["treeSize": .number(Double(treeSize)), "rootHash": .string(LedgerHash.hex(rootHash)),
         "chainHash": .string(LedgerHash.hex(chainHash)), "origin": .string(origin), "keyName": .string(keyName),
         "keyId": .string(NoteKeyID.hex(keyID)), "verifierKey": .string(verifierKey), "signedAt": .string(signedAt),
         "note": .string(note)]
    }

    /// Why the stored note does not hold (a signature that fails under the key recorded with it,
    /// or a size and root other than the columns beside it), or nil when it holds.
    public var signatureProblem: String? {
        do {
            let signed = try Checkpoint.verified(note: note, key: try NoteVerifierKey(text: verifierKey))
            guard signed.size == treeSize, signed.rootHash == rootHash else {
                return "the checkpoint of \(treeSize) leaves: its note does not say the size and root stored beside it"
            }
            return nil
        } catch {
            return "the checkpoint of \(treeSize) leaves: \(error.message)"
        }
    }

    /// A value from its parts (the storage module reads it from rows).
    package init(
        log: String,
        treeSize: UInt64,
        rootHash: [UInt8],
        chainHash: [UInt8],
        origin: String,
        keyName: String,
        keyID: UInt32,
        verifierKey: String,
        note: String,
        signedAt: String,
        cosignatures: [String] = []
    ) {
        self.log = log
        self.treeSize = treeSize
        self.rootHash = rootHash
        self.chainHash = chainHash
        self.origin = origin
        self.keyName = keyName
        self.keyID = keyID
        self.verifierKey = verifierKey
        self.note = note
        self.signedAt = signedAt
        self.cosignatures = cosignatures
    }
}
