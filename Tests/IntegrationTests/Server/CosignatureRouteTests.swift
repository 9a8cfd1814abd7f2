import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
@testable import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// Witnesses' cosignatures over HTTP (issue 20 item 5, decision 0047): a witness fetches the
/// checkpoint, cosigns it, posts it back; the ledger checks and stores the cosignature, all or
/// nothing, and serves it with the checkpoint and in every proof, where a verifier requiring
/// that witness accepts it.
@Suite("Witnesses' cosignatures stored and served")
struct CosignatureRouteTests {
    static let w1 = try! NoteSigningKey(generatingWithName: "witness.one.example", type: .cosignatureV1)
    static let w2 = try! NoteSigningKey(generatingWithName: "witness.two.example", type: .cosignatureV1)
    static let stranger = try! NoteSigningKey(generatingWithName: "witness.unknown.example", type: .cosignatureV1)

    static var settings: ServerSettings {
        var settings = ServerSettings()
        settings.witnesses = [w1.verifierKey, w2.verifierKey]
        return settings
    }

    @Test("a cosigned checkpoint is stored once and served with the checkpoint and in proofs, where the witness policy holds")
    func storedAndServed() async throws {
        let (fixture, _, _, checkpoint) = try await VerifiableLogRouteTests.signedLog()
        let logKey = VerifiableLogRouteTests.key.verifierKey
        try await fixture.test(settings: Self.settings) { client in
            let auditor = fixture.headers("auditor")
            let served = try await client.execute(uri: "/v1/logs/acme/checkpoint", method: .get, headers: auditor).text
            #expect(served == checkpoint.note, "no cosignature yet")
            let cosigned = try CheckpointWitness(key: Self.w1, logKey: logKey).cosign(Array(served.utf8), last: nil, time: 1_795_780_800).note
            let posted = try await client.execute(uri: "/v1/logs/acme/checkpoint/cosignatures", method: .post, headers: auditor,
                                                  body: ByteBuffer(string: cosigned))
            #expect(posted.status == .ok, "\(posted.text)")
            #expect(posted.json?["added"] == ["witness.one.example"])
            #expect(posted.json?["alreadyStored"] == [])
            #expect(posted.json?["treeSize"]?.doubleValue == Double(checkpoint.treeSize))
            #expect(posted.json?["checkpoint"]?.stringValue == cosigned)

            let now = try await client.execute(uri: "/v1/logs/acme/checkpoint", method: .get, headers: auditor).text
            #expect(now == cosigned, "the checkpoint is served with the cosignature line after the ledger's")
            let note = try SignedNote(text: now)
            try note.verify(with: logKey)
            #expect(try Cosignature.verify(note, witness: Self.w1.verifierKey) == 1_795_780_800)

            let again = try await client.execute(uri: "/v1/logs/acme/checkpoint/cosignatures", method: .post, headers: fixture.headers("admin"),
                                                 body: ByteBuffer(string: cosigned))
            #expect(again.status == .ok)
            #expect(again.json?["added"] == [])
            #expect(again.json?["alreadyStored"] == ["witness.one.example"])

            let proof = try await client.execute(uri: "/v1/logs/acme/proofs/inclusion?position=7", method: .get, headers: auditor)
            let bundle = try ProofBundle(json: Array(buffer: proof.body))
            #expect(bundle.checkpoint == cosigned)
            #expect(try ProofBundleVerifier.verify(bundle, key: logKey, witnesses: try WitnessPolicy(witnesses: [Self.w1.verifierKey]))
                .summary.contains("cosigned by 1 of 1 witnesses"))
            #expect(throws: LedgerError.self, "w2 has not cosigned") {
                try ProofBundleVerifier.verify(bundle, key: logKey, witnesses: try WitnessPolicy(witnesses: [Self.w1.verifierKey, Self.w2.verifierKey]))
            }
        }
    }

    @Test("a note with one unacceptable cosignature stores none; each refusal says why")
    func refusals() async throws {
        let (fixture, _, _, checkpoint) = try await VerifiableLogRouteTests.signedLog()
        let note = try SignedNote(text: checkpoint.note)
        let time: UInt64 = 1_795_780_800
        let byW2 = note.adding(try Cosignature.sign(note, with: Self.w2, time: time))
        var forged = byW2
        forged.signatures[1].signature[30] ^= 0x01
        let otherSize = try SignedNote(text: try SignedNote.sign(
            body: Checkpoint(origin: "ledger.test/acme", size: 5, rootHash: checkpoint.rootHash).body, with: VerifiableLogRouteTests.key).text)
        let otherRoot = try SignedNote(text: try SignedNote.sign(
            body: Checkpoint(origin: "ledger.test/acme", size: checkpoint.treeSize, rootHash: Array(repeating: 7, count: 32)).body,
            with: VerifiableLogRouteTests.key).text)
        let cases: [(String, String, HTTPResponse.Status, String)] = [
            ("an unknown witness beside a known one", byW2.adding(try Cosignature.sign(note, with: Self.stranger, time: time)).text,
             .badRequest, "does not accept"),
            ("a forged cosignature", forged.text, .badRequest, "does not verify"),
            ("only the ledger's own signature", note.text, .badRequest, "no witness's cosignature"),
            ("a size the ledger never signed", otherSize.adding(try Cosignature.sign(otherSize, with: Self.w2, time: time)).text,
             .notFound, "no signed checkpoint of size 5"),
            ("another root at the signed size", otherRoot.adding(try Cosignature.sign(otherRoot, with: Self.w2, time: time)).text,
             .badRequest, "not the checkpoint of size"),
            ("not a note", "hello\n", .badRequest, "not a signed note"),
        ]
        try await fixture.test(settings: Self.settings) { client in
            for (description, body, status, says) in cases {
                let response = try await client.execute(uri: "/v1/logs/acme/checkpoint/cosignatures", method: .post,
                                                        headers: fixture.headers("auditor"), body: ByteBuffer(string: body))
                #expect(response.status == status, "\(description): \(response.text)")
                #expect(response.text.contains(says), "\(description): \(response.text)")
            }
            for (role, status) in [("ingest", HTTPResponse.Status.forbidden), ("otherIngest", .forbidden)] {
                let response = try await client.execute(uri: "/v1/logs/acme/checkpoint/cosignatures", method: .post,
                                                        headers: fixture.headers(role), body: ByteBuffer(string: byW2.text))
                #expect(response.status == status, "\(role)")
            }
            let served = try await client.execute(uri: "/v1/logs/acme/checkpoint", method: .get, headers: fixture.headers("auditor")).text
            #expect(served == checkpoint.note, "nothing was stored, not even w2's valid cosignature sent beside the stranger's")
        }
        var open = Self.settings
        open.publicProofs = true
        try await fixture.test(settings: open) { client in
            let response = try await client.execute(uri: "/v1/logs/acme/checkpoint/cosignatures", method: .post,
                                                    headers: fixture.headers(nil), body: ByteBuffer(string: byW2.text))
            #expect(response.status == .unauthorized, "public proofs never open writing")
        }
        try await fixture.db.as(.administrator) { client async throws in
            _ = try await CheckpointStore(pool: client).addCosignatures(log: "acme", note: byW2.text, witnesses: [Self.w2.verifierKey])
            #expect(await client.sqlState("UPDATE ledger.checkpoint_cosignatures SET cosigned_at = 0") == "CL005")
            #expect(await client.sqlState("DELETE FROM ledger.checkpoint_cosignatures") == "CL005")
        }
    }
}
