import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Testing

/// The regulator report's "Integrity: passed" over records changed behind the database's back,
/// below the newest signed checkpoint (issue 36, finding 2): each change here passed the report
/// while `consent-ledger verify` failed, because the report re-hashed only what followed the
/// checkpoint. Now it re-hashes every record from the period's first, compares their columns, proves
/// each record it cites before that in the signed tree, and fails a checkpoint beyond the head.
@Suite("The report's integrity over records changed below the checkpoint")
struct ReportIntegrityTamperTests {
    /// The scenario's 35 events, signed at 35.
    static func signedScenario() async throws -> TestDatabase {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        _ = try await ReportCheckpointTests.sign(db, log: RegulatorScenario.log,
                                                 key: try NoteSigningKey(generatingWithName: "ledger.example.com"))
        return db
    }

    static func integrity(_ db: TestDatabase) async throws -> JSONValue {
        let report = try await db.as(.auditor) { client in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client).report
        }
        return try #require(report["integrity"])
    }

    @Test("an intact log passes: the period's records re-hashed from its first position, the cited record before it proved")
    func intact() async throws {
        let db = try await Self.signedScenario()
        let integrity = try await Self.integrity(db)
        #expect(integrity["passed"] == true, "\(integrity)")
        // Position 3 is the period's first event; position 1 (the change's declaration) is cited.
        #expect(integrity["verifiedFrom"] == 3 && integrity["verifiedThrough"] == 35)
        #expect(integrity["citedProved"] == 1)
        #expect(integrity["method"]?.stringValue?.contains("positions 1 to 2 that the report does not cite were not read") == true)
    }

    @Test("a record, its column, or the order of two rows changed below the checkpoint fails the report",
          arguments: [
            ("a parent's denial rewritten as an approval",
             ["UPDATE ledger.events SET record = convert_to(replace(convert_from(record, 'UTF8'), '\"answer\":\"denial\"', "
                + "'\"answer\":\"approval\"'), 'UTF8') WHERE log_id = 'tx' AND position = 14"], "position 14"),
            ("one byte of a record flipped",
             // The last digit of the first "2026" (its device time's year) becomes 7: still JSON the projections fold.
             ["UPDATE ledger.events SET record = set_byte(record, position('2026'::bytea in record) + 2, 55) "
                + "WHERE log_id = 'tx' AND position = 5"],
             "position 5"),
            ("the subject column changed",
             ["UPDATE ledger.events SET subject = 'someone-else' WHERE log_id = 'tx' AND position = 12"], "column subject"),
            ("two rows swapped",
             ["UPDATE ledger.events SET position = 1000 WHERE log_id = 'tx' AND position = 13",
              "UPDATE ledger.events SET position = 13 WHERE log_id = 'tx' AND position = 14",
              "UPDATE ledger.events SET position = 14 WHERE log_id = 'tx' AND position = 1000"], "position 13"),
          ])
    func changedBelowCheckpoint(change: String, statements: [String], expected: String) async throws {
        let db = try await Self.signedScenario()
        for sql in statements { try await CheckpointTests.tamper(db, table: "ledger.events", sql) }
        let integrity = try await Self.integrity(db)
        #expect(integrity["passed"] == false, "\(change): \(integrity)")
        #expect(integrity["problem"]?.stringValue?.contains(expected) == true, "\(change): \(integrity)")
    }

    @Test("a cited record before the period rewritten with its leaf hash fails its proof in the signed tree")
    func citedRecordRewritten() async throws {
        let db = try await Self.signedScenario()
        // Position 1, the change's declaration, lies before the period and is cited by the report.
        try await CheckpointTests.tamper(db, table: "ledger.events", """
            UPDATE ledger.events SET record = convert_to(replace(convert_from(record, 'UTF8'), 'Rooms', 'Tombs'), 'UTF8')
             WHERE log_id = 'tx' AND position = 1
            """)
        try await CheckpointTests.tamper(db, table: "ledger.events",
            "UPDATE ledger.events SET leaf_hash = sha256('\\x00'::bytea || record) WHERE log_id = 'tx' AND position = 1")
        let integrity = try await Self.integrity(db)
        #expect(integrity["passed"] == false, "\(integrity)")
        #expect(integrity["problem"]?.stringValue?.contains("Merkle node at level 1, index 0") == true, "\(integrity)")
    }

    @Test("the last event deleted and the head moved back below a signed checkpoint fails the report")
    func headMovedBack() async throws {
        let db = try await Self.signedScenario()
        try await CheckpointTests.tamper(db, table: "ledger.events", "DELETE FROM ledger.events WHERE log_id = 'tx' AND position = 35")
        try await CheckpointTests.tamper(db, table: "ledger.logs", """
            UPDATE ledger.logs SET head_position = 34,
                   head_chain_hash = (SELECT chain_hash FROM ledger.events WHERE log_id = 'tx' AND position = 34)
             WHERE log_id = 'tx'
            """)
        let integrity = try await Self.integrity(db)
        #expect(integrity["passed"] == false, "\(integrity)")
        #expect(integrity["problem"]?.stringValue?.contains("a checkpoint of 35 events was signed, but the log's head is at position 34") == true,
                "\(integrity)")
    }
}
