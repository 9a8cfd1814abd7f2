import Foundation

/// A witness's cosignature of a checkpoint, C2SP tlog-cosignature `cosignature/v1` (Ed25519):
/// a signature line on the checkpoint's note, by a key of type ``NoteKeyType/cosignatureV1``,
/// whose bytes are an 8-byte big-endian POSIX timestamp and the Ed25519 signature of
///
/// ```
/// cosignature/v1
/// time <timestamp>
/// <the checkpoint's note body>
/// ```
///
/// It states that, at that time, this was the largest tree of the log the witness had seen, and
/// that it extends every earlier checkpoint the witness cosigned (``CheckpointWitness``). A
/// verifier that requires cosignatures from witnesses it trusts cannot be shown a split view of
/// the log (docs/proofs.md).
///
/// ```swift
/// let line = try Cosignature.sign(note, with: witnessKey, time: 1_795_000_000)
/// let cosigned = note.adding(line)
/// let time = try Cosignature.verify(cosigned, witness: witnessKey.verifierKey)
/// ```
public enum Cosignature {
    /// The first line of the signed message, for domain separation.
    public static let header = "cosignature/v1"
    /// The largest timestamp allowed (2^63 − 1).
    public static let maximumTime = UInt64(Int64.max)

    /// The message a cosignature at `time` signs for a note of body `body`.
    public static func message(body: String, time: UInt64) -> [UInt8] {
        Array("\(header)\ntime \(time)\n".utf8) + Array(body.utf8)
    }

    /// The signature line by witness `key` on `note`'s body at `time` (POSIX seconds).
    public static func sign(_ note: SignedNote, with key: NoteSigningKey, time: UInt64) throws -> SignedNote.Signature {
        let verifier = key.verifierKey
        try verifier.require(.cosignatureV1, for: "cosigning a checkpoint")
        guard time <= maximumTime else { throw LedgerError(.invalidRequest, "a cosignature's time is at most 2^63 - 1") }
        let timestamp = (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) }
        return SignedNote.Signature(keyName: verifier.name, keyID: verifier.keyID,
                                    signature: timestamp + (try key.sign(message(body: note.body, time: time))))
    }

    /// The timestamp of `witness`'s cosignature of `note`. Throws ``LedgerError``
    /// (``LedgerError/Code/checkpointRefused``) when no line is by that witness (same name and key
    /// id) or when one that is does not verify.
    @discardableResult
    public static func verify(_ note: SignedNote, witness: NoteVerifierKey) throws(LedgerError) -> UInt64 {
        try witness.require(.cosignatureV1, for: "checking a witness's cosignature")
        let lines = note.signatures.filter { $0.keyName == witness.name && $0.keyID == witness.keyID }
        let who = "witness \(witness.name) (key \(NoteKeyID.hex(witness.keyID)))"
        guard !lines.isEmpty else {
            throw LedgerError(.checkpointRefused, "the checkpoint is not cosigned by \(who)")
        }
        var newest: UInt64 = 0
        // Every line that claims this witness must verify, as for the log's own signature.
        for line in lines {
            guard line.signature.count == 8 + 64 else {
                throw LedgerError(.checkpointRefused, "the cosignature by \(who) is \(line.signature.count) bytes, not 72 (a timestamp and an Ed25519 signature)")
            }
            let time = line.signature.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard time <= maximumTime,
                  witness.isValidSignature(Array(line.signature.dropFirst(8)), for: message(body: note.body, time: time)) else {
                throw LedgerError(.checkpointRefused, "the cosignature by \(who) does not verify: the checkpoint or the cosignature was changed or forged")
            }
            newest = max(newest, time)
        }
        return newest
    }

    /// A POSIX timestamp as RFC 3339 UTC (`2026-11-27T12:00:00Z`).
    public static func dateText(_ time: UInt64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(min(time, 253_402_300_799))))
    }
}
