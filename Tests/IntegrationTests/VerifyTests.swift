import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("verify catches what disabled triggers let through")
struct VerifyTests {
    /// A log of 20 events, then `tamper` run by the owner with the append-only triggers disabled.
    static func tamperedReport(_ tamper: String, table: String = "ledger.events", rangeSize: Int64 = LogVerifier.defaultRangeSize,
                               parallelism: Int = LogVerifier.defaultParallelism) async throws -> LogVerifier.Report {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(20))
        }
        try await db.as(.administrator) { client async throws in
            try await client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: .init(label: "t"))
                _ = try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(table) DISABLE TRIGGER USER"), logger: .init(label: "t"))
                _ = try await connection.query(PostgresQuery(unsafeSQL: tamper), logger: .init(label: "t"))
                _ = try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(table) ENABLE TRIGGER USER"), logger: .init(label: "t"))
                _ = try await connection.query("COMMIT", logger: .init(label: "t"))
            }
        }
        return try await db.as(.auditor) { client async throws in
            try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme", parallelism: parallelism, rangeSize: rangeSize)
        }
    }

    @Test("verify while appends go on: each run checks the log up to the head it read, and passes")
    func whileAppending() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(500))
            let reports = try await withThrowingTaskGroup(of: [LogVerifier.Report].self) { group in
                group.addTask {
                    for _ in 0..<60 { _ = try await store.append(log: "acme", events: try Fixtures.events(5)) }
                    return []
                }
                group.addTask {
                    var reports: [LogVerifier.Report] = []
                    for _ in 0..<30 { reports.append(try await LogVerifier(store: store).verify(log: "acme")) }
                    return reports
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(reports.count == 30)
            for report in reports {
                #expect(report.passed, "\(String(describing: report.problem))")
                #expect(report.verifiedCount == report.headPosition)
            }
        }
    }

    @Test("an untouched log verifies")
    func clean() async throws {
        let report = try await Self.tamperedReport("SELECT 1")
        #expect(report.passed)
        #expect(report.verifiedCount == 20)
        #expect(report.nonCanonicalCount == 0)
        #expect(report.referredCount == 0, "every column of a record the ledger wrote is compared in Swift")
    }

    @Test("in ranges of 4 positions on 3 connections: a clean log passes; a change, a gap, a missing range start and a deleted tail are each found where they are")
    func ranges() async throws {
        let clean = try await Self.tamperedReport("SELECT 1", rangeSize: 4, parallelism: 3)
        #expect(clean.passed, "\(String(describing: clean.problem))")
        #expect(clean.verifiedCount == 20 && clean.referredCount == 0)
        let changed = try await Self.tamperedReport(
            "UPDATE ledger.events SET record = convert_to(replace(convert_from(record, 'UTF8'), '\"lowerBound\":13', '\"lowerBound\":18'), 'UTF8') WHERE position = 11",
            rangeSize: 4, parallelism: 3)
        #expect(changed.problem?.position == 11 && changed.problem?.kind == .leafHash)
        #expect(changed.verifiedCount == 10)
        let gap = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position = 14", rangeSize: 4, parallelism: 3)
        #expect(gap.problem?.position == 15 && gap.problem?.kind == .gap, "\(String(describing: gap.problem))")
        #expect(gap.verifiedCount == 13)
        let boundary = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position = 8", rangeSize: 4, parallelism: 3)
        #expect(boundary.problem?.position == 8 && boundary.problem?.kind == .gap, "\(String(describing: boundary.problem))")
        #expect(boundary.verifiedCount == 7)
        let tail = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position > 14", rangeSize: 4, parallelism: 3)
        #expect(tail.problem?.kind == .gap || tail.problem?.kind == .head, "\(String(describing: tail.problem))")
        #expect(tail.problem?.position ?? 0 >= 15 && tail.verifiedCount == 14)
        let column = try await Self.tamperedReport("UPDATE ledger.events SET subject = 'p_9' WHERE position = 18", rangeSize: 4, parallelism: 3)
        #expect(column.problem?.position == 18 && column.problem?.kind == .column)
        #expect(column.verifiedCount == 17)
        #expect(column.referredCount >= 1)
    }

    @Test("a head moved back behind the triggers' back, with the events after it kept, fails the head check (found by tools/faults tamper)")
    func headMovedBackOverKeptEvents() async throws {
        let tamper = """
            UPDATE ledger.logs SET head_position = 13,
                   head_chain_hash = (SELECT chain_hash FROM ledger.events WHERE log_id = 'acme' AND position = 13)
             WHERE log_id = 'acme'
            """
        for rangeSize in [LogVerifier.defaultRangeSize, 4] {
            let report = try await Self.tamperedReport(tamper, table: "ledger.logs", rangeSize: rangeSize, parallelism: 2)
            #expect(report.problem?.kind == .head, "\(String(describing: report.problem))")
            #expect(report.problem?.detail.contains("the newest event is position 20") == true, "\(String(describing: report.problem))")
        }
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
        #expect(gap.verifiedCount == 8)
        let tail = try await Self.tamperedReport("DELETE FROM ledger.events WHERE position > 17")
        #expect(tail.problem?.kind == .head)
        #expect(tail.verifiedCount == 17)
    }

    /// The columns ledger.append_events copies from the record, each with a forged value.
    enum Column: String, CaseIterable, Sendable {
        case event_id, stream, stream_version, type, schema_version, occurred_at, recorded_at,
             subject, actor_kind, actor_id, correlation_id, causation_id

        var forged: String {
            switch self {
            case .event_id: "gen_random_uuid()"
            case .stream: "'subject-p_9'"
            case .stream_version: "stream_version + 100"
            case .type: "'ParentalAnswerReceived'"
            case .schema_version: "schema_version + 1"
            case .occurred_at: "occurred_at - interval '3 days'"
            case .recorded_at: "recorded_at + interval '1 microsecond'"
            case .subject: "'p_9'"
            case .actor_kind: "'guardian'"
            case .actor_id: "'op_9'"
            case .correlation_id: "'c_9'"
            case .causation_id: "'c_9'"
            }
        }
    }

    @Test("every column copied from the record is compared with it, and the column is named", arguments: Column.allCases)
    func everyColumn(column: Column) async throws {
        let report = try await Self.tamperedReport("UPDATE ledger.events SET \(column.rawValue) = \(column.forged) WHERE position = 3")
        #expect(report.problem?.position == 3)
        #expect(report.problem?.kind == .column)
        #expect(report.problem?.detail.hasPrefix("column \(column.rawValue) is ") == true, "\(String(describing: report.problem))")
    }

    /// Issue 17: the owner, triggers off, changed only subject and occurred_at of one event; verify
    /// passed and the event showed in another subject's replay and dossier.
    @Test("an event moved to another subject and day by its columns alone fails verify at its position")
    func movedToAnotherSubject() async throws {
        let report = try await Self.tamperedReport(
            "UPDATE ledger.events SET subject = 'p_2', occurred_at = occurred_at - interval '3 days' WHERE position = 4")
        #expect(report.problem?.position == 4)
        #expect(report.problem?.kind == .column)
        #expect(report.verifiedCount == 3)
    }

    @Test("a record PostgreSQL cannot read as JSON is reported at its position, not as a failed query")
    func unreadableRecord() async throws {
        let report = try await Self.tamperedReport(
            "UPDATE ledger.events SET record = '\\x6e6f74206a736f6e', leaf_hash = sha256('\\x006e6f74206a736f6e') WHERE position = 20")
        #expect(report.problem?.position == 20)
        #expect(report.problem?.kind == .chainHash)
    }

    /// Issue 17: the owner deleted the events after position 17 (triggers off on events) and then
    /// moved the head back to 17 (no trigger had to be disabled for that), and verify passed.
    @Test("the head cannot be moved back over deleted events; verify names the head and the newest event")
    func headMovedBack() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: try Fixtures.events(20))
        }
        let refusal: String? = try await db.as(.administrator) { client async throws in
            try await client.withConnection { connection in
                _ = try await connection.query("SET ROLE consent_ledger_owner", logger: .init(label: "t"))
                _ = try await connection.query("BEGIN", logger: .init(label: "t"))
                _ = try await connection.query("ALTER TABLE ledger.events DISABLE TRIGGER USER", logger: .init(label: "t"))
                _ = try await connection.query("DELETE FROM ledger.events WHERE position > 17", logger: .init(label: "t"))
                _ = try await connection.query("ALTER TABLE ledger.events ENABLE TRIGGER USER", logger: .init(label: "t"))
                _ = try await connection.query("COMMIT", logger: .init(label: "t"))
                do {
                    _ = try await connection.query("""
                        UPDATE ledger.logs SET head_position = 17,
                               head_chain_hash = (SELECT chain_hash FROM ledger.events WHERE log_id = 'acme' AND position = 17)
                         WHERE log_id = 'acme'
                        """, logger: .init(label: "t"))
                    return nil
                } catch let error as PSQLError {
                    return error.serverInfo?[.sqlState]
                }
            }
        }
        #expect(refusal == "CL005")
        let report = try await db.as(.auditor) { client async throws in
            try await LogVerifier(store: EventStore(pool: client)).verify(log: "acme")
        }
        #expect(report.problem?.kind == .head)
        #expect(report.problem?.detail.contains("head says position 20") == true)
        #expect(report.problem?.detail.contains("newest event is position 17") == true)
    }
}
