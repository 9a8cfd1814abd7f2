import Foundation
import LedgerCore
import PostgresNIO

extension CheckpointStore {
    /// What ``addCosignatures(log:note:witnesses:)`` did (``LedgerCore/CosignaturesAdded``).
    public typealias CosignaturesAdded = LedgerCore.CosignaturesAdded

    /// Stores the witnesses' cosignatures that `text` (a checkpoint note with cosignature lines)
    /// carries, after checking that its body is a checkpoint of `log` this ledger signed and that
    /// each cosignature is by one of `witnesses` and verifies. All or nothing: a note with one
    /// unacceptable line stores none and throws ``LedgerError`` (``LedgerError/Code/cosignatureRefused``,
    /// or ``LedgerError/Code/checkpointNotFound`` for a size never signed). The ledger's own
    /// signature line in the note is ignored: the stored one is served.
    public func addCosignatures(log: String, note text: String, witnesses: [NoteVerifierKey]) async throws -> CosignaturesAdded {
        let note: SignedNote
        let body: Checkpoint
        do {
            note = try SignedNote(text: text)
            body = try Checkpoint(body: note.body)
        } catch {
            throw refused(error.message, hint: "Send the checkpoint note exactly as served, with the witness's signature line added.")
        }
        guard body.size <= UInt64(Int64.max), let stored = try await at(log: log, size: Int64(body.size)) else {
            throw LedgerError(.checkpointNotFound, "log \(log) has no signed checkpoint of size \(body.size): a witness can only cosign a checkpoint this ledger signed",
                              hint: "Fetch the current one: GET /v1/logs/\(log)/checkpoint")
        }
        guard try SignedNote(text: stored.note).body == note.body else {
            throw refused("the note's text is not the checkpoint of size \(body.size) that this ledger signed for log \(log) (its origin or root differs)")
        }
        var rows: [(witness: NoteVerifierKey, time: UInt64, line: String)] = []
        for signature in note.signatures where !(signature.keyName == stored.keyName && signature.keyID == stored.keyID) {
            let who = "\(signature.keyName) (key \(NoteKeyID.hex(signature.keyID)))"
            guard let witness = witnesses.first(where: { $0.name == signature.keyName && $0.keyID == signature.keyID }) else {
                throw refused("the cosignature by \(who) is from a witness this ledger does not accept",
                              hint: "The operator names accepted witnesses with serve --witness NAME+KEYID+BASE64 (the witness's public key).")
            }
            guard !rows.contains(where: { $0.witness == witness }) else {
                throw refused("the note has two signature lines by \(who); send one")
            }
            let time: UInt64
            do { time = try Cosignature.verify(note, witness: witness) } catch { throw refused(error.message) }
            rows.append((witness, time, SignedNote.line(signature)))
        }
        guard !rows.isEmpty else {
            throw refused("the note carries no witness's cosignature, only the ledger's own signature",
                          hint: "A witness adds its line first: consent-ledger witness cosign.")
        }
        let result = try await pool.query("""
            SELECT ledger.record_cosignatures(\(log), \(Int64(body.size)), \(rows.map(\.witness.name)), \(rows.map { Int64($0.witness.keyID) }),
                   \(rows.map(\.witness.text)), \(rows.map { Int64($0.time) }), \(rows.map(\.line)))
            """, logger: logger)
        var added: [String] = []
        for try await name in result.decode(String.self) { added.append(name) }
        guard let now = try await at(log: log, size: Int64(body.size)) else {
            throw LedgerError(.checkpointNotFound, "log \(log) has no signed checkpoint of size \(body.size)")
        }
        return CosignaturesAdded(checkpoint: now, added: added, alreadyStored: rows.map(\.witness.name).filter { !added.contains($0) })
    }

    private func refused(_ reason: String, hint: String? = nil) -> LedgerError {
        LedgerError(.cosignatureRefused, "cosignature not stored: \(reason)", hint: hint)
    }
}
