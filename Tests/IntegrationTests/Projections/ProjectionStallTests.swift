import Foundation
import Logging
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

/// An event a fold cannot take stops only its log, for that projection, just before it; every
/// other log is caught up; the stall is recorded, shown, retried, and cleared once it folds
/// (decision 0033).
@Suite("A projection isolates an event it cannot fold")
struct ProjectionStallTests {
    /// An AgeRangeShared whose lowerBound is text: subject_state's fold fails on it (`::integer`,
    /// SQLSTATE 22P02). Both the Swift client and `ledger.append_events` refuse it now (decision
    /// 0035); a log can still hold such an event, stored before the catalogue was enforced in the
    /// database or under a catalogue that has changed since.
    static func unfoldableEvent(subject: String) -> String {
        """
        {"eventId":"\(UUID().uuidString.lowercased())","stream":"subject-\(subject)","type":"AgeRangeShared",\
        "schemaVersion":2,"occurredAt":"2026-11-20T16:02:19Z","subject":"\(subject)","actor":{"kind":"guardian"},\
        "app":{"bundleId":"com.example.kidsdraw","appVersion":"3.0.0","platform":"iOS","osVersion":"26.1"},\
        "jurisdiction":{"code":"US-TX","basis":"asserted"},\
        "payload":{"lowerBound":"thirteen","upperBound":15,"ageRangeDeclaration":"guardianDeclared"}}
        """
    }

    /// Stores `unfoldableEvent` at the head of `log` as a ledger without the database's payload
    /// check would have: as the superuser, in one transaction, the generated `ledger.payload_problems`
    /// is set aside for one that finds nothing, the event appended through `ledger.append_events`
    /// (which still hashes and chains it), and the check put back. Returns its position.
    static func storeUnfoldable(_ db: TestDatabase, log: String, subject: String) async throws -> Int64 {
        try await db.as(.administrator) { client async throws in
            try await client.transaction { connection in
                let logger = Logger(label: "projection-stall-test")
                for statement in [
                    "ALTER FUNCTION ledger.payload_problems(jsonb[]) RENAME TO payload_problems_enforced",
                    "CREATE FUNCTION ledger.payload_problems(p_events jsonb[]) RETURNS TABLE (ord bigint, problem text) LANGUAGE sql AS 'SELECT NULL::bigint, NULL::text WHERE false'",
                ] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                var position: Int64 = 0
                let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT position FROM ledger.append_events($1, ARRAY[$2])",
                    binds: { var b = PostgresBindings(); b.append(log); b.append(unfoldableEvent(subject: subject)); return b }()),
                    logger: logger)
                for try await value in rows.decode(Int64.self) { position = value }
                for statement in [
                    "DROP FUNCTION ledger.payload_problems(jsonb[])",
                    "ALTER FUNCTION ledger.payload_problems_enforced(jsonb[]) RENAME TO payload_problems",
                ] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                return position
            }
        }
    }

    /// A good history in `good`, and in `bad` a good history, the unfoldable event, and more good events.
    static func twoLogs(_ db: TestDatabase) async throws -> (good: Int64, bad: Int64, stalledAt: Int64) {
        let good = try await ProjectionTestSupport.appendSimulated(db, log: "good", families: 4, days: 6, seed: 171)
        let before = try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 172)
        let stalledAt = try await storeUnfoldable(db, log: "bad", subject: "p_5a11ed")
        #expect(stalledAt == Int64(before) + 1)
        let after = try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 173)
        return (Int64(good), stalledAt + Int64(after), stalledAt)
    }

    @Test("project run folds the good log fully, stops the bad one just before the event, and status says where and why")
    func runAndStatus() async throws {
        let db = try await TestDatabase.create()
        let (goodHead, badHead, stalledAt) = try await Self.twoLogs(db)
        let admin = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")

        let run = try await CLIRunner.run(["project", "run", "--chunk-size", "10000", "--database-url", admin])
        #expect(run.status != 0)
        #expect(run.stdout.contains("STALLED subject_state: log bad stalled at position \(stalledAt) (event "), "\(run.stdout)")
        // subject_state folds in Swift: the record does not decode as its type, and the error names the field.
        #expect(run.stdout.contains("does not decode") && run.stdout.contains("lowerBound"), "\(run.stdout)")
        #expect(run.stderr.contains("stalled at an event a projection cannot fold"), "\(run.stderr)")
        #expect(!run.stdout.contains("log good stalled"))

        let eventId = try await db.as(.administrator) { client async throws -> String in
            for projection in ProjectionDefinition.all {
                // The good log is caught up by every projection, whatever the bad log met.
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "good", client: client) == goodHead, "\(projection.name)")
                // On the bad log each projection is at the head, or stalled just before the event: never past it.
                let checkpoint = try await ProjectionTestSupport.checkpoint(projection, log: "bad", client: client)
                let stall = try await client.int(PostgresQuery(unsafeSQL:
                    "SELECT coalesce(max(stall_position), 0) FROM \(projection.name).checkpoints WHERE log_id = 'bad'"))
                #expect(checkpoint == badHead && stall == 0 || checkpoint == stalledAt - 1 && stall == stalledAt,
                        "\(projection.name): checkpoint \(checkpoint), stall \(stall)")
            }
            #expect(try await ProjectionTestSupport.checkpoint(.named(.subjectState), log: "bad", client: client) == stalledAt - 1)
            #expect(try await client.int("SELECT count(*) FROM subject_state.subjects WHERE subject = 'p_5a11ed'") == 0)
            var id = ""
            for try await value in try await client.query("""
                SELECT c.stall_event_id::text FROM subject_state.checkpoints c
                  JOIN ledger.events e ON e.log_id = c.log_id AND e.position = c.stall_position AND e.event_id = c.stall_event_id
                 WHERE c.log_id = 'bad' AND c.stall_error LIKE '%lowerBound%' AND c.stalled_since IS NOT NULL
                """).decode(String.self) { id = value }
            #expect(!id.isEmpty, "the stall names the event at its position, with the error and when")
            return id
        }

        let status = try await CLIRunner.run(["project", "status", "--database-url", auditor])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("log good: position \(goodHead) of \(goodHead), lag 0"), "\(status.stdout)")
        #expect(status.stdout.contains("log bad: position \(stalledAt - 1) of \(badHead)"), "\(status.stdout)")
        #expect(status.stdout.contains("STALLED at position \(stalledAt) (event \(eventId)) since "), "\(status.stdout)")
        #expect(status.stdout.contains("does not decode"), "\(status.stdout)")
        #expect(status.stdout.contains("`consent-ledger project run`"), "\(status.stdout)")

        // Retried at the next run, alone: still not folded, still not skipped, first failure time kept.
        let since = try await db.as(.administrator) { client async throws in
            try await client.int("SELECT extract(epoch FROM stalled_since)::bigint FROM subject_state.checkpoints WHERE log_id = 'bad'")
        }
        let again = try await CLIRunner.run(["project", "run", "--database-url", admin])
        #expect(again.status != 0)
        #expect(again.stdout.contains("log bad stalled at position \(stalledAt)"), "\(again.stdout)")
        try await db.as(.administrator) { client async throws in
            #expect(try await ProjectionTestSupport.checkpoint(.named(.subjectState), log: "bad", client: client) == stalledAt - 1)
            #expect(try await client.int(
                "SELECT extract(epoch FROM stalled_since)::bigint FROM subject_state.checkpoints WHERE log_id = 'bad'") == since)
        }

        // A rebuild meets it too, says which log and position, and still builds the good log.
        let rebuild = try await CLIRunner.run(["project", "rebuild", "subject_state", "--chunk-size", "50", "--database-url", admin])
        #expect(rebuild.status != 0)
        #expect(rebuild.stdout.contains("STALLED subject_state: log bad stalled at position \(stalledAt) (event \(eventId))"),
                "\(rebuild.stdout)\(rebuild.stderr)")
        try await db.as(.administrator) { client async throws in
            let subjectState = ProjectionDefinition.named(.subjectState)
            #expect(try await ProjectionTestSupport.checkpoint(subjectState, log: "good", client: client) == goodHead)
            #expect(try await ProjectionTestSupport.checkpoint(subjectState, log: "bad", client: client) == stalledAt - 1)
        }
    }

    @Test("a fold that fails on one log's event resumes once fixed: the stall clears and the rows match a rebuild")
    func fixedFoldResumes() async throws {
        let db = try await TestDatabase.create()
        let goodHead = try await ProjectionTestSupport.appendSimulated(db, log: "good", families: 4, days: 6, seed: 174)
        let before = try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 175)
        let subjectState = ProjectionDefinition.named(.subjectState)
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all { try await ProjectionTestSupport.installEmpty(projection, client: client) }
            // A fold bug, standing in: subject_state cannot write the row of this one subject.
            _ = try await client.raw("ALTER TABLE subject_state.subjects ADD CONSTRAINT fold_bug CHECK (subject <> 'p_5a11ed')")
        }
        // A valid event for that subject, then more events.
        let line = Self.unfoldableEvent(subject: "p_5a11ed").replacingOccurrences(of: "\"thirteen\"", with: "13")
        _ = try await db.as(.application) { client async throws in
            try await EventStore(pool: client).append(log: "bad", events: [try EventInput(line: Array(line.utf8))])
        }
        let stalledAt = Int64(before) + 1
        let badHead = stalledAt + Int64(try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 176))

        try await db.as(.administrator) { client async throws in
            let runner = ProjectionRunner(pool: client, chunkSize: 10_000)
            let stalls = try await runner.runOnce()
            #expect(stalls.map(\.log) == ["bad"])
            #expect(stalls.first?.projection == "subject_state")
            #expect(stalls.first?.position == stalledAt)
            #expect(stalls.first?.error.contains("23514") == true, "\(stalls)")
            #expect(try await ProjectionTestSupport.checkpoint(subjectState, log: "good", client: client) == Int64(goodHead))
            #expect(try await ProjectionTestSupport.checkpoint(subjectState, log: "bad", client: client) == stalledAt - 1)
            let status = try await ProjectionStatus.all(pool: client).first { $0.projection == "subject_state" }
            #expect(status?.logs.first { $0.log == "bad" }?.stall?.position == stalledAt)
            #expect(status?.logs.first { $0.log == "good" }?.stall == nil)

            // The fix is installed: the next run folds the event and everything after it, and clears the stall.
            _ = try await client.raw("ALTER TABLE subject_state.subjects DROP CONSTRAINT fold_bug")
            #expect(try await runner.runOnce().isEmpty)
            #expect(try await ProjectionTestSupport.checkpoint(subjectState, log: "bad", client: client) == badHead)
            #expect(try await client.int("SELECT count(*) FROM subject_state.checkpoints WHERE stall_position IS NOT NULL") == 0)
            #expect(try await client.int("SELECT count(*) FROM subject_state.subjects WHERE subject = 'p_5a11ed'") == 1)
            let resumed = try await ProjectionRows.live(subjectState, pool: client)
            _ = try await ProjectionRebuilder(pool: client).rebuild(subjectState)
            expectSameRows(resumed, try await ProjectionRows.live(subjectState, pool: client), "resumed vs rebuilt")
        }
    }

    @Test("the follower keeps the other logs moving and tells a stall once, not at every pass")
    func followerTellsOnce() async throws {
        let db = try await TestDatabase.create()
        let (goodHead, _, stalledAt) = try await Self.twoLogs(db)
        let notes = Notes()
        let passes = Notes()
        try await db.as(.administrator) { client async throws in
            try await ProjectionFollower(runner: ProjectionRunner(pool: client), pollInterval: .seconds(1))
                .follow(note: { notes.add($0) }, stopOnLastingFailure: true, shouldStop: {
                    passes.add("pass")
                    return passes.all.count >= 3
                })
            #expect(try await ProjectionTestSupport.checkpoint(.named(.subjectState), log: "good", client: client) == goodHead)
        }
        let told = notes.all.filter { $0.contains("subject_state: log bad stalled at position \(stalledAt)") }
        #expect(told.count == 1, "\(notes.all)")
    }
}

/// Lines collected from a `@Sendable` callback.
final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
