import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// Who may record a verification (issue 36, finding 7): the auditor role could call
/// `ledger.record_verification` from psql and put a "passed" it never ran on the console.
@Suite("Who records a verification")
struct VerificationRecordTests {
    @Test("the auditor role cannot record one; verify as the auditor says so and records nothing; as the application role it records")
    func onlyWritersRecord() async throws {
        let db = try await TestDatabase.create()
        try await CheckpointTests.append(db, 4)
        try await db.as(.auditor) { client async throws in
            #expect(await client.sqlState("SELECT ledger.record_verification('acme', 'full', true, 4, 4, 'forged', 'me')") == "42501")
        }
        let asAuditor = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", try CLITests.url(db, user: "consent_ledger_auditor")])
        #expect(asAuditor.status == 0, "\(asAuditor.stderr)")
        #expect(asAuditor.stderr.contains("not recorded in ledger.verifications"), "\(asAuditor.stderr)")
        #expect(try await Self.recorded(db) == 0)

        let asApplication = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", try CLITests.url(db, user: "consent_ledger_app")])
        #expect(asApplication.status == 0, "\(asApplication.stderr)")
        #expect(!asApplication.stderr.contains("not recorded"), "\(asApplication.stderr)")
        #expect(try await Self.recorded(db) == 1)
    }

    static func recorded(_ db: TestDatabase) async throws -> Int64 {
        try await db.as(.auditor) { client in try await client.int("SELECT count(*) FROM ledger.verifications WHERE log_id = 'acme'") }
    }
}
