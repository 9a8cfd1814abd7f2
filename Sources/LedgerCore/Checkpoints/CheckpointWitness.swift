import Foundation

/// A witness: it cosigns a log's checkpoint only after checking that it is signed by the log's
/// key and extends the last checkpoint it cosigned for that log, so that every checkpoint it ever
/// cosigns lies on one append-only history (C2SP tlog-witness's rule, run offline from files by
/// `consent-ledger witness cosign`).
///
/// ```swift
/// let witness = try CheckpointWitness(key: witnessKey, logKey: ledgerKey)
/// let result = try witness.cosign(bundleBytes, last: previousState, time: now)
/// // publish result.note to the ledger; keep it as the next call's `last`
/// ```
public struct CheckpointWitness: Sendable {
    /// The witness's cosignature key.
    public let key: NoteSigningKey
    /// The log's public key.
    public let logKey: NoteVerifierKey

    /// A witness for the log of `logKey`, cosigning with `key`.
    public init(key: NoteSigningKey, logKey: NoteVerifierKey) throws(LedgerError) {
        try key.verifierKey.require(.cosignatureV1, for: "the witness's --key-file")
        try logKey.require(.ed25519, for: "--log-key")
        self.key = key
        self.logKey = logKey
    }

    /// What ``cosign(_:last:time:)`` produced.
    public struct Cosigned: Sendable, Equatable {
        /// The checkpoint's note with this witness's cosignature added: what the ledger stores and
        /// serves, and this witness's state for its next run.
        public var note: String
        /// The checkpoint cosigned.
        public var checkpoint: Checkpoint
        /// One sentence on what was checked.
        public var statement: String
    }

    /// Cosigns the checkpoint in `input`, a proof bundle's JSON (`GET …/proofs/consistency?from=`
    /// the size of `last`) or, for the first checkpoint the witness sees or the same one again, a
    /// signed checkpoint note. `last` is the note this witness cosigned last for the log (nil: none).
    /// Throws ``LedgerError`` (``LedgerError/Code/checkpointRefused``) without cosigning when the
    /// checkpoint is not the log's, is older than `last`, or does not provably extend it (a fork).
    public func cosign(_ input: [UInt8], last: String?, time: UInt64) throws(LedgerError) -> Cosigned {
        let isBundle = input.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        let noteText: String
        let checkpoint: Checkpoint
        if isBundle {
            let bundle = try ProofBundle(json: input)
            do { checkpoint = try ProofBundleVerifier.verify(bundle, key: logKey, trusted: last).checkpoint } catch {
                throw refused(error.message + (last == nil ? "" : " (if the ledger signed this, its log forked: it showed this witness another history)"))
            }
            noteText = bundle.checkpoint
        } else {
            noteText = String(decoding: input, as: UTF8.self)
            checkpoint = try Checkpoint.verified(note: noteText, key: logKey)
            guard checkpoint.origin.hasPrefix(logKey.name + "/") else {
                throw refused("the checkpoint's origin \(checkpoint.origin) is not a log of \(logKey.name)")
            }
            if let last {
                let older = try Checkpoint.verified(note: last, key: logKey)
                guard older.origin == checkpoint.origin else {
                    throw refused("this witness's state is for \(older.origin), the checkpoint is for \(checkpoint.origin); keep one --state file per log")
                }
                if older.size > checkpoint.size {
                    throw refused("the checkpoint (size \(checkpoint.size)) is older than the one this witness cosigned last (size \(older.size)); "
                                  + "a witness never goes back")
                }
                if older.size == checkpoint.size, older.rootHash != checkpoint.rootHash {
                    throw refused("the log forked: this witness cosigned size \(older.size) with another root; it will not cosign both")
                }
                if older.size < checkpoint.size {
                    throw refused("the checkpoint (size \(checkpoint.size)) is newer than the one this witness cosigned last (size \(older.size)), "
                                  + "and a bare checkpoint does not prove that it extends it",
                                  hint: "Give the consistency bundle instead: GET /v1/logs/LOG/proofs/consistency?from=\(older.size)")
                }
            }
        }
        let note = try SignedNote(text: noteText)
        let line: SignedNote.Signature
        do { line = try Cosignature.sign(note, with: key, time: time) } catch {
            throw LedgerError(.checkpointRefused, "could not cosign: \(error)")
        }
        let cosigned = note.adding(line)
        let previous = try last.map { (text: String) throws(LedgerError) in try Checkpoint.verified(note: text, key: logKey) }
        let since = previous.map { $0.size == checkpoint.size ? "the same checkpoint as last time" : "it extends size \($0.size), cosigned last" }
            ?? "the first checkpoint of this log this witness sees, trusted as the start"
        return Cosigned(note: cosigned.text, checkpoint: checkpoint,
                        statement: "cosigned \(checkpoint.origin) at size \(checkpoint.size) as \(key.name) at \(Cosignature.dateText(time)): \(since)")
    }

    private func refused(_ reason: String, hint: String? = nil) -> LedgerError {
        LedgerError(.checkpointRefused, "not cosigning: \(reason)", hint: hint)
    }
}
