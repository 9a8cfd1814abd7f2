import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// `consent-ledger watch` (issue 42): the built executable, as an operator runs it at a terminal.
@Suite("consent-ledger watch")
struct WatchCommandTests {
    /// Reads lines from `pipe` until there are `count` of them or the pipe ends (the writer exited
    /// or was killed), on a thread of its own.
    static func lines(from handle: FileHandle, count: Int) async throws -> [String] {
        try await CLIRunner.onOwnThread {
            var text = ""
            while text.filter({ $0 == "\n" }).count < count {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text.split(separator: "\n").map(String.init)
        }
    }

    @Test("--until-caught-up prints each finding once, in log order, as text or JSON lines; a bad --after is refused")
    func caughtUp() async throws {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(db)
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let text = try await CLIRunner.run(["watch", "--log", "acme", "--until-caught-up", "--database-url", auditor])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("2.answer-after-expiry  anomaly  #2  p_1  ")
                    && lines[1].hasPrefix("3.answer-before-question  violation  #3  p_1  "), "\(text.stdout)")
        let json = try await CLIRunner.run(["watch", "--log", "acme", "--until-caught-up", "--format", "json", "--after", "2",
                                            "--database-url", auditor])
        #expect(json.status == 0, "\(json.stderr)")
        let items = try json.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        #expect(items.map { $0["id"]?.stringValue } == ["3.answer-before-question"], "\(json.stdout)")
        let bad = try await CLIRunner.run(["watch", "--log", "acme", "--after", "two", "--database-url", auditor])
        #expect(bad.status == 64 && bad.stderr.contains("<position>.<rule>"), "\(bad.stderr)")
        let unknown = try await CLIRunner.run(["watch", "--log", "acme-typo", "--until-caught-up", "--database-url", auditor])
        #expect(unknown.status == 1 && unknown.stderr.contains("there is no log named acme-typo"), "\(unknown.stderr)")
    }

    @Test("following, it prints the findings there are, then each new one as the projection folds it")
    func follows() async throws {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(db)
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let (process, stderr, pipe) = try CLIRunner.start(["watch", "--log", "acme", "--database-url", auditor])
        defer { if process.isRunning { process.terminate() } }
        // A bound, so that a watcher that never prints fails the test instead of hanging it.
        let pid = process.processIdentifier
        let bound = Task {
            try await Task.sleep(for: .seconds(120))
            kill(pid, SIGTERM)
        }
        defer { bound.cancel() }
        let first = try await Self.lines(from: pipe.fileHandleForReading, count: 2)
        #expect(first.map { $0.prefix(while: { $0 != " " }) } == ["2.answer-after-expiry", "3.answer-before-question"],
                "\(first); stderr: \((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        try await FindingsFeedTests.append(db, AnomalyTests.laterBatch)
        try await FindingsFeedTests.fold(db)
        let next = try await Self.lines(from: pipe.fileHandleForReading, count: 2)
        #expect(next.map { $0.prefix(while: { $0 != " " }) } == ["8.exception-decided-twice", "9.decision-without-request"],
                "\(next); stderr: \((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        #expect(process.isRunning, "watch ended by itself")
        try? FileManager.default.removeItem(at: stderr)
    }
}
