import Foundation
import LedgerCore
import Testing

/// The signed-note and key encodings, checked against the reference implementation's own vector
/// (golang.org/x/mod/sumdb/note, note_test.go: the PeterNeumann key and note).
/// Notes that must not parse, each with what is wrong with it.
let malformedNotes: [(String, String)] = {
    let text = SignedNoteTests.goText
    let signature = "PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
    return [
        ("no blank line", text + "\u{2014} " + signature),
        ("hyphen for em dash", text + "\n- " + signature),
        ("no final newline", String(SignedNoteTests.goNote.dropLast())),
        ("bad base64", text + "\n\u{2014} PeterNeumann x08go/!!!\n"),
        ("no signature", text + "\n"),
    ]
}()

@Suite("signed notes and keys")
struct SignedNoteTests {
    static let goVerifierKey = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    static let goSigningKey = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
    static let goText = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let goNote = goText + "\n\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"

    @Test("the Go vector's keys parse, with the key id it names")
    func goKeys() throws {
        let verifier = try NoteVerifierKey(text: Self.goVerifierKey)
        #expect(verifier.name == "PeterNeumann")
        #expect(NoteKeyID.hex(verifier.keyID) == "c74f20a3")
        #expect(verifier.text == Self.goVerifierKey)
        let signing = try NoteSigningKey(text: Self.goSigningKey)
        #expect(signing.verifierKey == verifier)
        #expect(signing.text == Self.goSigningKey)
    }

    @Test("signing the Go vector's text gives the Go vector's note byte for byte, and it verifies")
    func goNote() throws {
        let signing = try NoteSigningKey(text: Self.goSigningKey)
        let note = try SignedNote.sign(body: Self.goText, with: signing)
        #expect(note.text == Self.goNote)
        let parsed = try SignedNote(text: Self.goNote)
        #expect(parsed.body == Self.goText)
        try parsed.verify(with: try NoteVerifierKey(text: Self.goVerifierKey))
    }

    @Test("a changed text, another key, or a wrong key id is refused")
    func refusals() throws {
        let verifier = try NoteVerifierKey(text: Self.goVerifierKey)
        let changed = try SignedNote(text: Self.goNote.replacingOccurrences(of: "problem,", with: "problem;"))
        #expect(throws: LedgerError.self) { try changed.verify(with: verifier) }
        let other = try NoteSigningKey(generatingWithName: "PeterNeumann")
        #expect(throws: LedgerError.self) { try SignedNote(text: Self.goNote).verify(with: other.verifierKey) }
        // The key id is checked against the name and key when a key is parsed.
        #expect(throws: LedgerError.self) { try NoteVerifierKey(text: "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW") }
        #expect(throws: LedgerError.self) { try NoteVerifierKey(text: "Peter+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW") }
        #expect(throws: LedgerError.self) { try NoteSigningKey(text: Self.goVerifierKey) }
    }

    @Test("malformed notes are refused with what is wrong", arguments: malformedNotes)
    func malformed(_ what: String, _ text: String) {
        #expect(throws: LedgerError.self, "\(what)") { try SignedNote(text: text) }
    }

    @Test("a checkpoint body round-trips, and sizes with signs or leading zeros are refused")
    func checkpointBody() throws {
        let root = MerkleHash.leaf([1, 2, 3])
        let checkpoint = Checkpoint(origin: "ledger.example.com/acme", size: 120, rootHash: root)
        #expect(checkpoint.body == "ledger.example.com/acme\n120\n\(Data(root).base64EncodedString())\n")
        #expect(try Checkpoint(body: checkpoint.body) == checkpoint)
        for size in ["0120", "+120", "-1", "", "1e3", "12 "] {
            #expect(throws: LedgerError.self) { try Checkpoint(body: "o\n\(size)\n\(Data(root).base64EncodedString())\n") }
        }
        #expect(throws: LedgerError.self) { try Checkpoint(body: "o\n1\n\(Data(root.prefix(31)).base64EncodedString())\n") }
        #expect(throws: LedgerError.self) { try Checkpoint(body: checkpoint.body + "extension\n") }
    }

    @Test("a generated key round-trips through its text and signs verifiable checkpoints")
    func generated() throws {
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        let reread = try NoteSigningKey(text: key.text)
        #expect(reread.verifierKey == key.verifierKey)
        let body = Checkpoint(origin: "ledger.example.com/acme", size: 3, rootHash: MerkleHash.emptyRoot).body
        let note = try SignedNote.sign(body: body, with: reread)
        #expect(try Checkpoint.verified(note: note.text, key: try NoteVerifierKey(text: key.verifierKey.text)).size == 3)
        #expect(throws: LedgerError.self) { try NoteSigningKey(generatingWithName: "has space") }
        #expect(throws: LedgerError.self) { try NoteSigningKey(generatingWithName: "has+plus") }
    }
}
