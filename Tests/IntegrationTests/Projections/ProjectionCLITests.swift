import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("The projection, replay and explain commands")
struct ProjectionCLITests {
    @Test("project run builds everything, status shows no lag, and replay, explain and state answer in JSON")
    func commandsAnswer() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, families: 12, days: 15, seed: 51)
        let admin = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")

        let before = try await CLIRunner.run(["project", "status", "--database-url", auditor])
        #expect(before.status == 0)
        #expect(before.stdout.contains("subject_state: not built"))

        let run = try await CLIRunner.run(["project", "run", "--database-url", admin])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("subject_state: not built yet; building it"))

        let status = try await CLIRunner.run(["project", "status", "--database-url", auditor])
        #expect(status.status == 0)
        #expect(status.stdout.contains("log sim: position \(count) of \(count), lag 0"))
        #expect(!status.stdout.contains("behind"))

        let subject = try await db.as(.auditor) { client async throws in
            try await ReplayAndExplainTests.busySubjects(client, limit: 1)[0]
        }
        let replay = try await CLIRunner.run(["replay", "--log", "sim", "--subject", subject, "--format", "json", "--database-url", auditor])
        #expect(replay.status == 0, "\(replay.stderr)")
        let history = try JSONParser.parse(replay.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let steps = try #require(history["steps"]?.arrayValue)
        #expect(!steps.isEmpty)
        #expect(steps.allSatisfy { $0["event"]?["sentence"]?.stringValue?.isEmpty == false && $0["state"] != nil })

        let text = try await CLIRunner.run(["replay", "--log", "sim", "--subject", subject, "--database-url", auditor])
        #expect(text.stdout.contains("State after the last event:"))

        let feature = try await db.as(.auditor) { client async throws in
            var name = ""
            for try await f in try await client.query("SELECT feature FROM subject_state.features WHERE subject = \(subject) LIMIT 1")
                .decode(String.self) { name = f }
            return name
        }
        let explain = try await CLIRunner.run(["explain", "--log", "sim", "--subject", subject, "--feature", feature, "--format", "json",
                                         "--database-url", auditor])
        #expect(explain.status == 0, "\(explain.stderr)")
        let answer = try JSONParser.parse(explain.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(answer["decisions"]?.arrayValue?.isEmpty == false)

        let state = try await CLIRunner.run(["state", "--log", "sim", "--as-of", "\(count / 2)", "--database-url", auditor])
        #expect(state.status == 0, "\(state.stderr)")
        let lines = state.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { _ = try JSONParser.parse(String(line)) }
    }

    @Test("bad arguments are refused with what to do, and change nothing", arguments: [
        (["replay", "--log", "sim", "--subject", "p_x", "--as-of", "last tuesday"], "neither a log position nor an RFC 3339 time"),
        (["replay", "--log", "sim", "--subject", "p_x", "--clock", "wall"], "--clock must be recorded or occurred"),
        (["explain", "--log", "sim", "--subject", "p_x", "--feature", "f", "--at", "2026-13-01"], "neither a log position"),
        (["project", "rebuild", "subjects"], "there is no projection named subjects"),
        (["replay", "--log", "nolog", "--subject", "p_x"], "there is no log named nolog"),
    ])
    func badArguments(arguments: [String], message: String) async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 2, days: 2, seed: 52)
        let outcome = try await CLIRunner.run(arguments + ["--database-url", try CLITests.url(db, user: "postgres")])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM pg_namespace WHERE nspname = 'subject_state'") == 0)
        }
    }
}
