import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("verify catches what disabled triggers let through")
struct VerifyTests {
    /// A log of 20 events, then `tamper` run by the owner with the append-only triggers disabled.
    static func tamperedReport(_ tamper: String) async throws -> LogVerifier.Report {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(20))
        }
        try await db.as(.administrator) { client async throws in
            try await client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: .init(label: "t"))
                _ = try await connection.query("ALTER TABLE ledger.events DISABLE TRIGGER USER", logger: .init(label: "t"))
                _ = try await connection.query(PostgresQuery(unsafeSQL: tamper), logger: .init(label: "t"))
                _ = try await connection.query("ALTER TABLE ledger.events ENABLE TRIGGER USER", logger: .init(label: "t"))
                _ = try await connection.query("COMMIT", logger: .init(label: "t"))
            }
        }
        return try await db.as(.auditor) { client async throws in
            try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme")
        }
    }

    @Test("an untouched log verifies")
    func clean() async throws {
        let report = try await Self.tamperedReport("SELECT 1")
        #expect(report.passed)
        #expect(report.verifiedCount == 20)
        #expect(report.nonCanonicalCount == 0)
    }

    @Test("a record changed in place is caught at its position")
    func changedRecord() async throws {
        let report = try await Self.tamperedReport(
            "UPDATE ledger.events SET record = convert_to(replace(convert_from(record, 'UTF8'), '\"lowerBound\":13', '\"lowerBound\":18'), 'UTF8') WHERE position = 7")
        #expect(report.problem?.position == 7)
        #expect(report.problem?.kind == .leafHash)
        #expect(report.verifiedCount == 6)
    }

    @Test("a record changed with its leaf hash recomputed is caught by the chain")
    func changedRecordAndLeaf() async throws {
        let report = try await Self.tamperedReport("""
            UPDATE ledger.events SET record = r, leaf_hash = sha256('\\x00'::bytea || r)
              FROM (SELECT convert_to(replace(convert_from(record, 'UTF8'), '"lowerBound":13', '"lowerBound":18'), 'UTF8') AS r
                      FROM ledger.events WHERE position = 12) x
             WHERE position = 12
            """)
        #expect(report.problem?.position == 12)
        #expect(report.problem?.kind == .chainHash)
    }

    @Test("a column changed without its record is caught")
    func changedColumn() async throws {
        let report = try await Self.tamperedReport("UPDATE ledger.events SET type = 'ParentalAnswerReceived' WHERE position = 3")
        #expect(report.problem?.position == 3)
        #expect(report.problem?.kind == .column)
    }

    @Test("a deleted event is caught as a gap, a deleted tail by the head")
    func deletions() async throws {
        let gap = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position = 9")
        #expect(gap.problem?.position == 10)
        #expect(gap.problem?.kind == .gap)
        let tail = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position > 17")
        #expect(tail.problem?.kind == .head)
        #expect(tail.verifiedCount == 17)
    }
}
