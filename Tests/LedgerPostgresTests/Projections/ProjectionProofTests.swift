import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// `consent-ledger verify --projections` (issue 36, finding 3): the owner role could delete a
/// finding or turn a denial into an approval in the projections with plain DML, the sealed reports
/// followed, and `verify` still exited 0. Folding the log again and comparing every table finds it.
@Suite("verify --projections")
struct ProjectionProofTests {
    /// Runs `sql` as the owner role, as `serve`'s folds hold it.
    static func asOwner(_ db: TestDatabase, _ sql: String) async throws {
        try await db.as(.administrator) { client in
            try await client.withConnection { connection in
                for statement in ["BEGIN", "SET LOCAL ROLE consent_ledger_owner", sql, "COMMIT"] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .init(label: "t"))
                }
            }
        }
    }

    @Test("live projections equal the log folded again; a finding deleted or a denial turned into an approval fails, naming the table")
    func editedProjections() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let owner = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        #expect(try CLIRunner.run(["project", "run", "--database-url", owner]).status == 0)

        let intact = try CLIRunner.run(["verify", "--projections", "--log", "tx", "--database-url", auditor])
        #expect(intact.status == 0, "\(intact.stdout)\(intact.stderr)")
        for name in ProjectionDefinition.all.map(\.name) {
            #expect(intact.stdout.contains("projection \(name) equals the log folded again to position 35"), "\(intact.stdout)")
        }

        try await Self.asOwner(db, "DELETE FROM anomalies.findings WHERE log_id = 'tx' AND position = (SELECT min(position) FROM anomalies.findings)")
        let deleted = try CLIRunner.run(["verify", "--projections", "--log", "tx", "--database-url", auditor])
        #expect(deleted.status == 1, "\(deleted.stdout)")
        #expect(deleted.stdout.contains("projection anomalies FAILED: table findings differs from the log folded to position 35: "
                                        + "the live table lacks a row the log gives"), "\(deleted.stdout)")

        let fresh = try await TestDatabase.create()
        try await RegulatorScenario.append(fresh)
        let freshOwner = try CLITests.url(fresh, user: "postgres")
        #expect(try CLIRunner.run(["project", "run", "--database-url", freshOwner]).status == 0)
        try await Self.asOwner(fresh, "UPDATE consent_register.entries SET answer = 'approval' WHERE log_id = 'tx' AND answer = 'denial'")
        let approved = try CLIRunner.run(["verify", "--projections", "--log", "tx",
                                          "--database-url", try CLITests.url(fresh, user: "consent_ledger_auditor")])
        #expect(approved.status == 1, "\(approved.stdout)")
        #expect(approved.stdout.contains("projection consent_register FAILED: table entries differs"), "\(approved.stdout)")
        #expect(approved.stdout.contains("the live table holds a row the log does not give"), "\(approved.stdout)")
    }
}
