import Foundation
import LedgerCore
import Testing

/// The offline verifier on good bundles and on each way a bundle can lie; and the independent
/// Python verifier (tools/verify-proof.py) answering the same on every one of them.
@Suite("proof bundles: verified offline, by Swift and by Python alike")
struct ProofBundleVerifierTests {
    /// One bundle to check, what a correct verifier answers (0 OK, 1 FAILED, 2 unusable input).
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var bundle: [UInt8]
        var trusted: String?
        var expected: Int32
        /// Witnesses required (`--witness`), and how many (`--min-witnesses`; nil: all).
        var witnesses: [NoteVerifierKey] = []
        var minimum: Int?
    }

    static func cases() async throws -> (key: NoteVerifierKey, cases: [Case]) {
        let fixture = try ProofBundleFixture(size: 13)
        let forked = try ProofBundleFixture(size: 13)   // other records, other key: used for forks and forgeries
        func json(_ bundle: ProofBundle) -> [UInt8] { CanonicalJSON.encode(bundle.json) }
        var cases: [Case] = []
        func add(_ description: String, _ bundle: ProofBundle, trusted: String? = nil, _ expected: Int32) {
            cases.append(Case(description: description, bundle: json(bundle), trusted: trusted, expected: expected))
        }
        let good = try await fixture.inclusion(position: 7, size: 13)
        add("a good inclusion bundle", good, 0)
        add("inclusion of the last leaf", try await fixture.inclusion(position: 13, size: 13), 0)
        add("inclusion in a tree of one leaf", try await fixture.inclusion(position: 1, size: 1), 0)
        add("inclusion with consistency from a trusted older checkpoint", try await fixture.inclusion(position: 3, size: 13, since: 6),
            trusted: try fixture.checkpoint(size: 6), 0)
        add("a good consistency bundle, trusted older checkpoint", try await fixture.consistencyBundle(from: 5, to: 13),
            trusted: try fixture.checkpoint(size: 5), 0)
        add("consistency to the same size", try await fixture.consistencyBundle(from: 13, to: 13), trusted: try fixture.checkpoint(size: 13), 0)

        var bundle = good
        bundle.inclusion!.path[1][0] ^= 0x01
        add("a changed path element", bundle, 1)
        bundle = good
        bundle.inclusion!.path.swapAt(0, 1)
        add("path elements in swapped order", bundle, 1)
        bundle = good
        bundle.inclusion!.path.removeLast()
        add("a path element missing", bundle, 1)
        bundle = good
        bundle.inclusion!.leafIndex = 7
        add("a wrong leaf index", bundle, 1)
        bundle = good
        bundle.inclusion!.position = 8
        bundle.inclusion!.leafIndex = 7
        add("another position claimed for the record", bundle, 1)
        bundle = good
        bundle.inclusion!.treeSize = 12
        add("a wrong tree size", bundle, 1)
        bundle = good
        bundle.inclusion!.record = fixture.records[7]
        add("another record", bundle, 1)
        bundle = good
        bundle.inclusion!.record = fixture.records[6] + [0x20]
        bundle.inclusion!.leafHash = MerkleHash.leaf(bundle.inclusion!.record)
        add("a changed record with its leaf hash recomputed", bundle, 1)
        bundle = good
        var signature = Array(Data(base64Encoded: String(bundle.checkpoint.split(separator: " ").last!.dropLast()))!)
        signature[10] ^= 0x01
        bundle.checkpoint = String(bundle.checkpoint[..<bundle.checkpoint.range(of: " ", options: .backwards)!.upperBound])
            + Data(signature).base64EncodedString() + "\n"
        add("a forged signature", bundle, 1)
        bundle = good
        bundle.checkpoint = try forked.checkpoint(size: 13, signer: try NoteSigningKey(text: forked.key.text))
        add("a checkpoint signed by another key", bundle, 1)
        bundle = good
        bundle.checkpoint = bundle.checkpoint.replacingOccurrences(of: "\n13\n", with: "\n14\n")
        add("the checkpoint's size changed after signing", bundle, 1)
        add("a trusted checkpoint from a forked log", try await fixture.consistencyBundle(from: 5, to: 13),
            trusted: try forkedCheckpoint(fixture: fixture, size: 5), 1)
        add("a trusted checkpoint newer than the bundle's", try await fixture.inclusion(position: 7, size: 10),
            trusted: try fixture.checkpoint(size: 13), 1)
        add("a trusted checkpoint with no consistency proof to it", good, trusted: try fixture.checkpoint(size: 6), 1)
        var consistency = try await fixture.consistencyBundle(from: 5, to: 13)
        consistency.consistency!.path[0][31] ^= 0x80
        add("a changed consistency path element", consistency, trusted: try fixture.checkpoint(size: 5), 1)
        consistency = try await fixture.consistencyBundle(from: 5, to: 13)
        consistency.consistency!.fromSize = 6
        add("a consistency proof claiming another older size", consistency, 1)

        try witnessCases(fixture: fixture, good: good).forEach { cases.append($0) }

        cases.append(Case(description: "not JSON", bundle: Array("{\"format\":".utf8), trusted: nil, expected: 2))
        var unknown = good.json
        if case .object(var members) = unknown { members["extra"] = 1; unknown = .object(members) }
        cases.append(Case(description: "an unknown member", bundle: CanonicalJSON.encode(unknown), trusted: nil, expected: 2))
        return (fixture.key.verifierKey, cases)
    }

    /// Bundles whose checkpoints carry witnesses' cosignatures (C2SP tlog-cosignature), checked
    /// against a policy of witnesses.
    static func witnessCases(fixture: ProofBundleFixture, good: ProofBundle) throws -> [Case] {
        let w1 = try NoteSigningKey(generatingWithName: "witness.one.example", type: .cosignatureV1)
        let w2 = try NoteSigningKey(generatingWithName: "witness.two.example", type: .cosignatureV1)
        let w3 = try NoteSigningKey(generatingWithName: "witness.three.example", type: .cosignatureV1)
        let note = try SignedNote(text: good.checkpoint)
        let time: UInt64 = 1_795_780_800
        let byOne = note.adding(try Cosignature.sign(note, with: w1, time: time))
        let byTwo = byOne.adding(try Cosignature.sign(note, with: w2, time: time + 5))
        var cases: [Case] = []
        func add(_ description: String, _ checkpoint: String, _ witnesses: [NoteSigningKey], minimum: Int? = nil, _ expected: Int32) {
            var bundle = good
            bundle.checkpoint = checkpoint
            cases.append(Case(description: description, bundle: CanonicalJSON.encode(bundle.json), trusted: nil, expected: expected,
                              witnesses: witnesses.map(\.verifierKey), minimum: minimum))
        }
        add("cosigned by both witnesses required", byTwo.text, [w1, w2], 0)
        add("cosigned by one of two witnesses, both required", byOne.text, [w1, w2], 1)
        add("cosigned by one of two witnesses, one required", byOne.text, [w1, w2], minimum: 1, 0)
        add("cosigned by two of three witnesses, two required", byTwo.text, [w1, w2, w3], minimum: 2, 0)
        add("no cosignature, one witness required", good.checkpoint, [w1], 1)
        add("cosignatures present, no witness required", byTwo.text, [], 0)
        add("a witness's line whose key id is not the witness's", byOne.text.replacingOccurrences(of: "witness.one.example", with: "witness.three.example"),
            [w3], 1)
        var forged = byOne
        forged.signatures[1].signature[20] ^= 0x01
        add("a forged cosignature, that witness required", forged.text, [w1], 1)
        add("a forged cosignature, the quorum met by others", forged.adding(try Cosignature.sign(note, with: w2, time: time)).text,
            [w1, w2], minimum: 1, 1)
        var retimed = byOne
        retimed.signatures[1].signature[7] ^= 0x01
        add("a cosignature whose time was changed", retimed.text, [w1], 1)
        var short = byOne
        short.signatures[1].signature.removeFirst(8)
        add("a cosignature without its time", short.text, [w1], 1)
        let other = try SignedNote(text: try fixture.checkpoint(size: 12))
        var moved = note
        moved = moved.adding(try Cosignature.sign(other, with: w1, time: time))
        add("a cosignature of another checkpoint pasted onto this one", moved.text, [w1], 1)
        let plain = try SignedNote(text: good.checkpoint)
        var unstamped = plain
        unstamped.signatures.append(SignedNote.Signature(keyName: w1.name, keyID: w1.verifierKey.keyID,
                                                         signature: Array(repeating: 0, count: 8) + (try w1.sign(Array(plain.body.utf8)))))
        add("a witness's plain note signature instead of a cosignature", unstamped.text, [w1], 1)
        return cases
    }

    /// A checkpoint of `size` by the fixture's key over different records: the log forked.
    static func forkedCheckpoint(fixture: ProofBundleFixture, size: Int) throws -> String {
        let other = (0..<size).map { MerkleHash.leaf([UInt8($0), 0xFF]) }
        let body = Checkpoint(origin: Checkpoint.origin(keyName: fixture.key.name, log: fixture.log), size: UInt64(size),
                              rootHash: MerkleTree.root(of: other)).body
        return try SignedNote.sign(body: body, with: fixture.key).text
    }

    /// What the Swift verifier answers, as an exit status.
    static func swiftAnswer(_ testCase: Case, key: NoteVerifierKey) -> Int32 {
        guard let bundle = try? ProofBundle(json: testCase.bundle) else { return 2 }
        do {
            _ = try ProofBundleVerifier.verify(bundle, key: key, trusted: testCase.trusted,
                                               witnesses: try WitnessPolicy(witnesses: testCase.witnesses, minimum: testCase.minimum))
            return 0
        } catch {
            return 1
        }
    }

    @Test("the Swift verifier accepts the good bundles and refuses each lie")
    func swiftVerifier() async throws {
        let (key, cases) = try await Self.cases()
        for testCase in cases {
            #expect(Self.swiftAnswer(testCase, key: key) == testCase.expected, "\(testCase.description)")
        }
    }

    @Test("every refusal names what failed")
    func refusalsExplain() async throws {
        let fixture = try ProofBundleFixture(size: 13)
        var bundle = try await fixture.inclusion(position: 7, size: 13)
        bundle.inclusion!.treeSize = 12
        #expect { try ProofBundleVerifier.verify(bundle, key: fixture.key.verifierKey) } throws: { error in
            (error as? LedgerError)?.message.contains("12 leaves") == true
        }
    }

    @Test("tools/verify-proof.py answers exactly as the Swift verifier on every bundle")
    func pythonAgrees() async throws {
        let (key, cases) = try await Self.cases()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("proofs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, testCase) in cases.enumerated() {
            let bundle = folder.appendingPathComponent("\(index).json")
            try Data(testCase.bundle).write(to: bundle)
            var arguments = [bundle.path, "--public-key", key.text]
            if let trusted = testCase.trusted {
                let file = folder.appendingPathComponent("\(index).trusted")
                try Data(trusted.utf8).write(to: file)
                arguments += ["--trusted", file.path]
            }
            arguments += testCase.witnesses.flatMap { ["--witness", $0.text] }
            if let minimum = testCase.minimum { arguments += ["--min-witnesses", String(minimum)] }
            let (status, output) = try await PythonVerifier.run(arguments)
            #expect(status == testCase.expected, "\(testCase.description): python said \(output)")
            #expect(status == Self.swiftAnswer(testCase, key: key), "\(testCase.description)")
        }
    }

    @Test("tools/verify-proof.py agrees with every RFC 9162 vector's wantErr")
    func pythonVectors() async throws {
        let (status, output) = try await PythonVerifier.run(["--rfc9162-vectors", try TestData.directory("rfc9162").path])
        #expect(status == 0, "\(output.suffix(500))")
        #expect(output.contains("196 vectors"))
        #expect(output.contains("0 disagree"))
    }
}

/// Runs tools/verify-proof.py with python3.
enum PythonVerifier {
    static var script: String {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("tools/verify-proof.py").path
    }

    /// Runs the verifier and waits for it on a thread of its own, not on one of Swift
    /// concurrency's few threads, which other tests' tasks need meanwhile.
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runBlocking(arguments) }) }.start()
        }
    }

    private static func runBlocking(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
