import Foundation

/// A C2SP tlog-checkpoint: the origin of a log, the size of its Merkle tree and the root hash,
/// as the body of a ``SignedNote``:
///
/// ```
/// consent-ledger.local/acme
/// 120
/// q1x2…base64…=
/// ```
public struct Checkpoint: Sendable, Equatable {
    /// The log's unique name: `<key name>/<log id>` for this ledger (docs/proofs.md).
    public var origin: String
    /// The number of leaves (events) in the tree.
    public var size: UInt64
    /// The RFC 9162 root hash of the first `size` leaves.
    public var rootHash: [UInt8]

    /// A checkpoint from its parts.
    public init(origin: String, size: UInt64, rootHash: [UInt8]) {
        self.origin = origin
        self.size = size
        self.rootHash = rootHash
    }

    /// The origin this ledger gives `log` when signing with a key named `keyName`.
    public static func origin(keyName: String, log: String) -> String { "\(keyName)/\(log)" }

    /// The note body: origin, size and base64 root, each on its line.
    public var body: String {
        "\(origin)\n\(size)\n\(Data(rootHash).base64EncodedString())\n"
    }

    /// Parses a note body (any extension lines after the root are refused: none are written).
    public init(body: String) throws(LedgerError) {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[3].isEmpty else {
            throw LedgerError(.checkpointRefused, "a checkpoint is three lines (origin, tree size, root hash), this has \(max(lines.count - 1, 0))")
        }
        guard !lines[0].isEmpty else { throw LedgerError(.checkpointRefused, "the checkpoint's origin line is empty") }
        let sizeText = String(lines[1])
        guard !sizeText.isEmpty, sizeText.allSatisfy({ $0.isASCII && $0.isNumber }),
              sizeText == "0" || !sizeText.hasPrefix("0"), let size = UInt64(sizeText) else {
            throw LedgerError(.checkpointRefused, "the checkpoint's size '\(sizeText)' is not a decimal number without leading zeros")
        }
        guard let root = Data(base64Encoded: String(lines[2])), root.count == MerkleHash.byteCount else {
            throw LedgerError(.checkpointRefused, "the checkpoint's root hash is not base64 of 32 bytes")
        }
        self.init(origin: String(lines[0]), size: size, rootHash: Array(root))
    }

    /// Parses a signed note, checks its signature by `key`, and returns the checkpoint it holds.
    public static func verified(note: String, key: NoteVerifierKey) throws(LedgerError) -> Checkpoint {
        let parsed = try SignedNote(text: note)
        try parsed.verify(with: key)
        return try Checkpoint(body: parsed.body)
    }
}
