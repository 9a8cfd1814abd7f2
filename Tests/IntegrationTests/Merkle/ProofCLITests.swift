import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// signing-key, checkpoint, prove and verify-proof as a user runs them.
@Suite("The verifiable-log commands")
struct ProofCLITests {
    @Test("create a key, sign, prove, and verify offline; a changed bundle fails (exit 1), garbage is unusable (exit 2)")
    func endToEnd() async throws {
        let db = try await TestDatabase.create()
        try await CheckpointTests.append(db, 9)
        let owner = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("proofs-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("key").path

        let created = try await CLIRunner.run(["signing-key", "create", "--name", "ledger.example.com", "--key-file", keyFile])
        #expect(created.status == 0, "\(created.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let publicKey = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await CLIRunner.run(["signing-key", "show", "--key-file", keyFile]).stdout == created.stdout)
        #expect(try await CLIRunner.run(["signing-key", "create", "--key-file", keyFile]).status == 1)   // never replaced

        let checkpointFile = folder.appendingPathComponent("checkpoint").path
        let signed = try await CLIRunner.run(["checkpoint", "--log", "acme", "--key-file", keyFile, "--out", checkpointFile, "--database-url", owner])
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(signed.stdout.hasPrefix("ledger.example.com/acme\n9\n"))
        #expect(try String(contentsOfFile: checkpointFile, encoding: .utf8) == signed.stdout)

        let bundleFile = folder.appendingPathComponent("bundle.json").path
        let proved = try await CLIRunner.run(["prove", "inclusion", "--log", "acme", "--position", "4", "--out", bundleFile, "--database-url", auditor])
        #expect(proved.status == 0, "\(proved.stderr)")
        let verified = try await CLIRunner.run(["verify-proof", bundleFile, "--public-key", publicKey, "--trusted", checkpointFile])
        #expect(verified.status == 0 && verified.stdout.hasPrefix("OK: record at position 4 is leaf 3 of the tree of 9 leaves"), "\(verified)")

        // The same record claimed at another leaf index: refused, naming why.
        let original = try String(contentsOfFile: bundleFile, encoding: .utf8)
        try Data(original.replacingOccurrences(of: "\"leafIndex\":3", with: "\"leafIndex\":2").utf8).write(to: URL(fileURLWithPath: bundleFile))
        let refused = try await CLIRunner.run(["verify-proof", bundleFile, "--public-key", publicKey])
        #expect(refused.status == 1 && refused.stdout.hasPrefix("FAILED: leaf index 2"), "\(refused)")
        try Data("not json".utf8).write(to: URL(fileURLWithPath: bundleFile))
        let garbage = try await CLIRunner.run(["verify-proof", bundleFile, "--public-key", publicKey])
        #expect(garbage.status == 2 && garbage.stderr.hasPrefix("ERROR:"), "\(garbage)")

        // Proving past the newest checkpoint says what to run.
        try await CheckpointTests.append(db, 2)
        let late = try await CLIRunner.run(["prove", "inclusion", "--log", "acme", "--position", "11", "--database-url", auditor])
        #expect(late.status == 1 && late.stderr.contains("consent-ledger checkpoint --log acme"), "\(late.stderr)")
    }
}
