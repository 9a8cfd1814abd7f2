import Crypto
import Foundation
import LedgerCore
import Testing

/// C2SP tlog-cosignature keys and signatures, and the witness that cosigns only checkpoints that
/// extend what it cosigned before.
@Suite("witnesses: cosignature keys, cosignatures and the rule that catches a fork")
struct CosignatureTests {
    let fixture: ProofBundleFixture
    let witnessKey: NoteSigningKey
    let witness: CheckpointWitness
    let time: UInt64 = 1_795_780_800

    init() throws {
        fixture = try ProofBundleFixture(size: 13)
        witnessKey = try NoteSigningKey(generatingWithName: "witness.auditor.example", type: .cosignatureV1)
        witness = try CheckpointWitness(key: witnessKey, logKey: fixture.key.verifierKey)
    }

    @Test("a witness key's id is SHA-256(name || LF || 0x04 || key)[:4], and its text says type 0x04")
    func keyEncoding() throws {
        let verifier = witnessKey.verifierKey
        let digest = Array(SHA256.hash(data: Array("witness.auditor.example\n".utf8) + [0x04] + verifier.publicKey))
        #expect(verifier.keyID == digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let raw = Array(Data(base64Encoded: String(verifier.text.split(separator: "+", maxSplits: 2)[2]))!)
        #expect(raw.first == 0x04)
        #expect(try NoteVerifierKey(text: verifier.text) == verifier)
        #expect(try NoteSigningKey(text: witnessKey.text).verifierKey == verifier)
    }

    @Test("the signed message is the header, the time line and the note's text; the line holds the time big-endian")
    func messageLayout() throws {
        let note = try SignedNote(text: try fixture.checkpoint(size: 5))
        #expect(Cosignature.message(body: note.body, time: 1_679_315_147)
            == Array("cosignature/v1\ntime 1679315147\n".utf8) + Array(note.body.utf8))
        let line = try Cosignature.sign(note, with: witnessKey, time: 0x0102_0304_0506_0708)
        #expect(line.signature.count == 72)
        #expect(Array(line.signature.prefix(8)) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(witnessKey.verifierKey.isValidSignature(Array(line.signature.dropFirst(8)),
                                                        for: Cosignature.message(body: note.body, time: 0x0102_0304_0506_0708)))
        #expect(try Cosignature.verify(note.adding(line), witness: witnessKey.verifierKey) == 0x0102_0304_0506_0708)
    }

    @Test("a log key cannot cosign and a witness key cannot sign a checkpoint or stand for the log's key")
    func keyTypesKeptApart() throws {
        let note = try SignedNote(text: try fixture.checkpoint(size: 5))
        #expect(throws: LedgerError.self) { try Cosignature.sign(note, with: fixture.key, time: time) }
        #expect(throws: LedgerError.self) { try SignedNote.sign(body: note.body, with: witnessKey) }
        #expect(throws: LedgerError.self) { try note.verify(with: witnessKey.verifierKey) }
        #expect(throws: LedgerError.self) { try CheckpointWitness(key: fixture.key, logKey: fixture.key.verifierKey) }
        #expect(throws: LedgerError.self) { try WitnessPolicy(witnesses: [fixture.key.verifierKey]) }
        #expect(throws: LedgerError.self) { try WitnessPolicy(witnesses: [witnessKey.verifierKey], minimum: 2) }
        #expect(throws: LedgerError.self) { try WitnessPolicy(witnesses: [witnessKey.verifierKey, witnessKey.verifierKey]) }
    }

    @Test("the first checkpoint is cosigned as the start; a consistency proof from it gets the next one cosigned")
    func firstThenExtension() async throws {
        let first = try witness.cosign(Array(try fixture.checkpoint(size: 5).utf8), last: nil, time: time)
        #expect(first.checkpoint.size == 5)
        #expect(first.statement.contains("trusted as the start"))
        #expect(try Cosignature.verify(try SignedNote(text: first.note), witness: witnessKey.verifierKey) == time)
        let bundle = try await fixture.consistencyBundle(from: 5, to: 13)
        let next = try witness.cosign(CanonicalJSON.encode(bundle.json), last: first.note, time: time + 60)
        #expect(next.checkpoint.size == 13)
        #expect(next.statement.contains("extends size 5"))
        let note = try SignedNote(text: next.note)
        try note.verify(with: fixture.key.verifierKey)
        #expect(try Cosignature.verify(note, witness: witnessKey.verifierKey) == time + 60)
        // Cosigning the same checkpoint again replaces this witness's line rather than adding one.
        let again = try witness.cosign(Array(next.note.utf8), last: next.note, time: time + 120)
        #expect(try SignedNote(text: again.note).signatures.count == 2)
    }

    @Test("a fork, a rollback, a bare newer checkpoint, another log and another ledger's key are refused")
    func refusals() async throws {
        let state = try witness.cosign(Array(try fixture.checkpoint(size: 5).utf8), last: nil, time: time).note
        func refused(_ input: [UInt8], last: String? = state, _ says: String) {
            #expect { try witness.cosign(input, last: last, time: time) } throws: { error in
                let message = (error as? LedgerError)?.message ?? ""
                return (error as? LedgerError)?.code == .checkpointRefused && message.contains(says)
            }
        }
        // Same key, other records: the ledger shows this witness a second history.
        refused(Array(try ProofBundleVerifierTests.forkedCheckpoint(fixture: fixture, size: 5).utf8), "forked")
        var forkedBundle = try await fixture.consistencyBundle(from: 5, to: 13)
        forkedBundle.consistency!.fromRoot = try Checkpoint(body: try SignedNote(
            text: try ProofBundleVerifierTests.forkedCheckpoint(fixture: fixture, size: 5)).body).rootHash
        refused(CanonicalJSON.encode(forkedBundle.json), "consistency proof")
        let bigger = try witness.cosign(Array(try fixture.checkpoint(size: 13).utf8), last: nil, time: time).note
        refused(Array(try fixture.checkpoint(size: 5).utf8), last: bigger, "never goes back")
        refused(Array(try fixture.checkpoint(size: 13).utf8), "does not prove that it extends it")
        let otherLedger = try ProofBundleFixture(size: 13, keyName: "other.example")
        refused(Array(try otherLedger.checkpoint(size: 5).utf8), "not signed by")
    }
}
