import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// `consent-ledger verify --since-checkpoint` as a user runs it: it relies on the newest signed
/// checkpoint (after checking it) and re-hashes only what follows.
@Suite("verify --since-checkpoint")
struct VerifySinceCheckpointTests {
    @Test("re-hashes only the events after the newest checkpoint; a broken checkpoint, or a bad event after it, fails (exit 1)")
    func sinceCheckpoint() async throws {
        let db = try await TestDatabase.create()
        let owner = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("since-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("key").path
        #expect(try await CLIRunner.run(["signing-key", "create", "--name", "ledger.example.com", "--key-file", keyFile]).status == 0)
        try await CheckpointTests.append(db, 12)

        let none = try await CLIRunner.run(["verify", "--since-checkpoint", "--log", "acme", "--database-url", auditor])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout.contains("no signed checkpoint yet, so every event was re-hashed"), "\(none.stdout)")
        #expect(none.stdout.contains("verified 12 events"), "\(none.stdout)")

        #expect(try await CLIRunner.run(["checkpoint", "--log", "acme", "--key-file", keyFile, "--database-url", owner]).status == 0)
        try await CheckpointTests.append(db, 5)
        let since = try await CLIRunner.run(["verify", "--since-checkpoint", "--log", "acme", "--database-url", auditor])
        #expect(since.status == 0, "\(since.stderr)")
        #expect(since.stdout.contains("checkpoint of 12 leaves verified"), "\(since.stdout)")
        #expect(since.stdout.contains("verified the 5 events after it; head position 17"), "\(since.stdout)")

        // A record before the checkpoint changed: --since-checkpoint trusts the checkpoint's
        // re-hash and does not read it; the full verify finds it.
        try await CheckpointTests.tamper(db, table: "ledger.events",
            "UPDATE ledger.events SET record = record || ' '::bytea WHERE log_id = 'acme' AND position = 3")
        #expect(try await CLIRunner.run(["verify", "--since-checkpoint", "--log", "acme", "--database-url", auditor]).status == 0)
        let full = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", auditor])
        #expect(full.status == 1 && full.stdout.contains("position 3: leaf-hash"), "\(full.stdout)")

        // An event after the checkpoint changed: found.
        try await CheckpointTests.tamper(db, table: "ledger.events",
            "UPDATE ledger.events SET record = record || ' '::bytea WHERE log_id = 'acme' AND position = 15")
        let after = try await CLIRunner.run(["verify", "--since-checkpoint", "--log", "acme", "--database-url", auditor])
        #expect(after.status == 1 && after.stdout.contains("FAILED after 14 good events"), "\(after.stdout)")
        #expect(after.stdout.contains("position 15: leaf-hash"), "\(after.stdout)")

        // The checkpoint's chain hash no longer matches the log's at its size: the checkpoint fails.
        try await CheckpointTests.tamper(db, table: "ledger.events",
            "UPDATE ledger.events SET chain_hash = sha256(chain_hash) WHERE log_id = 'acme' AND position = 12")
        let broken = try await CLIRunner.run(["verify", "--since-checkpoint", "--log", "acme", "--database-url", auditor])
        #expect(broken.status == 1 && broken.stdout.contains("the checkpoint of 12 leaves FAILED"), "\(broken.stdout)")
    }
}
