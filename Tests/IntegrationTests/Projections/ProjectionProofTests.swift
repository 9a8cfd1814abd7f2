import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Logging
import Testing

/// The projections guarded (issue 36, finding 3): the owner role could delete a finding or turn a
/// denial into an approval in the projections with plain DML, the sealed reports followed, and
/// `verify` still exited 0. Now only the projector role writes them, and `consent-ledger verify
/// --projections`, which folds the log again and compares every table, finds what a superuser changed.
@Suite("verify --projections")
struct ProjectionProofTests {
    /// Runs `sql` in a transaction acting as `role` (nil: the superuser, as someone who controls the
    /// database would), and returns the SQLSTATE it failed with, if any.
    @discardableResult
    static func run(_ db: TestDatabase, as role: String?, _ sql: String) async throws -> String? {
        try await db.as(.administrator) { client in
            try await client.withConnection { connection in
                let logger = Logger(label: "t")
                _ = try await connection.query("BEGIN", logger: logger)
                do {
                    if let role { _ = try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL ROLE \(role)"), logger: logger) }
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                    _ = try await connection.query("COMMIT", logger: logger)
                    return nil
                } catch let error as PSQLError {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    return error.serverInfo?[.sqlState]
                }
            }
        }
    }

    @Test("no role but the projector may write a projection table: the owner, the application and the auditor are refused")
    func onlyTheProjectorWrites() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        #expect(try await CLIRunner.run(["project", "run", "--database-url", try CLITests.url(db, user: "postgres")]).status == 0)
        for role in ["consent_ledger_owner", "consent_ledger_app", "consent_ledger_auditor"] {
            for sql in ["DELETE FROM anomalies.findings",
                        "UPDATE consent_register.entries SET answer = 'approval' WHERE answer = 'denial'",
                        "INSERT INTO subject_state.subjects (log_id, subject) VALUES ('tx', 'forged')",
                        "TRUNCATE report_facts.facts"] {
                let state = try await Self.run(db, as: role, sql)
                #expect(state == "42501", "\(role): \(sql) gave \(state ?? "no error")")
            }
        }
        let findings = try await db.as(.auditor) { client in
            try await client.int("SELECT count(*) FROM anomalies.findings WHERE log_id = 'tx'")
        }
        #expect(findings > 0)
        // The owner cannot take the projections back either.
        #expect(try await Self.run(db, as: "consent_ledger_owner", "ALTER TABLE anomalies.findings DISABLE TRIGGER ALL") == "42501")
    }

    @Test("live projections equal the log folded again; a finding deleted or a denial turned into an approval fails, naming the table")
    func editedProjections() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let owner = try CLITests.url(db, user: "postgres")
        // Run as the owner, whose verifications are recorded (the auditor's are not) for the report to name.
        let auditor = owner
        #expect(try await CLIRunner.run(["project", "run", "--database-url", owner]).status == 0)

        let intact = try await CLIRunner.run(["verify", "--projections", "--log", "tx", "--database-url", auditor])
        #expect(intact.status == 0, "\(intact.stdout)\(intact.stderr)")
        for name in ProjectionDefinition.all.map(\.name) {
            #expect(intact.stdout.contains("projection \(name) equals the log folded again to position 35"), "\(intact.stdout)")
        }

        // The regulator report names the proof.
        let proven = try await ReportIntegrityTamperTests.integrity(db)
        #expect(proven["passed"] == true && proven["projectionsProven"]?["position"] == 35, "\(proven)")

        try await Self.run(db, as: nil, "DELETE FROM anomalies.findings WHERE log_id = 'tx' AND position = (SELECT min(position) FROM anomalies.findings)")
        let deleted = try await CLIRunner.run(["verify", "--projections", "--log", "tx", "--database-url", auditor])
        #expect(deleted.status == 1, "\(deleted.stdout)")
        #expect(deleted.stdout.contains("projection anomalies FAILED: table findings differs from the log folded to position 35: "
                                        + "the live table lacks a row the log gives"), "\(deleted.stdout)")
        // A failed proof fails the report's integrity until the projections are rebuilt and proven again.
        let failed = try await ReportIntegrityTamperTests.integrity(db)
        #expect(failed["passed"] == false, "\(failed)")
        #expect(failed["problem"]?.stringValue?.contains("`consent-ledger verify --projections` at") == true, "\(failed)")
        #expect(try await CLIRunner.run(["project", "rebuild", "anomalies", "--database-url", owner]).status == 0)
        #expect(try await CLIRunner.run(["verify", "--projections", "--log", "tx", "--database-url", auditor]).status == 0)
        #expect(try await ReportIntegrityTamperTests.integrity(db)["passed"] == true)

        let fresh = try await TestDatabase.create()
        try await RegulatorScenario.append(fresh)
        let freshOwner = try CLITests.url(fresh, user: "postgres")
        #expect(try await CLIRunner.run(["project", "run", "--database-url", freshOwner]).status == 0)
        try await Self.run(fresh, as: nil, "UPDATE consent_register.entries SET answer = 'approval' WHERE log_id = 'tx' AND answer = 'denial'")
        let approved = try await CLIRunner.run(["verify", "--projections", "--log", "tx",
                                          "--database-url", try CLITests.url(fresh, user: "consent_ledger_auditor")])
        #expect(approved.status == 1, "\(approved.stdout)")
        #expect(approved.stdout.contains("projection consent_register FAILED: table entries differs"), "\(approved.stdout)")
        #expect(approved.stdout.contains("the live table holds a row the log does not give"), "\(approved.stdout)")
    }
}
