import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LedgerCore
import LedgerPostgres
import Testing

/// The examples of the documents a newcomer reads first, taken from the Markdown and run (issue 39,
/// "Docs whose examples run"), so that an example that drifts from the code fails CI: the shell
/// blocks run in order with bash against a real PostgreSQL and a real `serve` (the one the document
/// itself starts), every JSON block is read by the ledger's own parsers and every event in one is
/// appended. A block that cannot run in a test says why in a comment before it; the test knows
/// each block's fate (docs/decisions/0080-documentation-examples-run-from-the-markdown.md).
@Suite("Documentation examples")
struct DocumentationExamplesTests {
    /// The documents whose examples are run, relative to the repository.
    static let documents = ["README.md", "docs/getting-started.md", "docs/http-api.md", "docs/envelope.md"]

    /// This checkout.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of `document`.
    static func blocks(_ document: String) throws -> [MarkdownExample] {
        let text = try String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)
        return MarkdownExample.blocks(in: text, document: document)
    }

    /// Languages that are not examples: Swift (compiled by a test of its own) and `text`
    /// (synopses and listings, not commands).
    static let notExamples: Set<String> = ["swift", "text"]

    /// Whether `block` is run (`sh`) or checked (`json`) rather than marked not run.
    static func isExercised(_ block: MarkdownExample) -> Bool {
        if case .notRun = block.mark { return false }
        return block.language == "sh" || block.language == "json"
    }

    static var documentsWithCommands: [String] {
        documents.filter { (try? blocks($0).contains { $0.language == "sh" && isExercised($0) }) ?? true }
    }

    static var documentsWithJSON: [String] {
        documents.filter { (try? blocks($0).contains { $0.language == "json" && isExercised($0) }) ?? true }
    }

    @Test("every block of the documents is run, checked, or marked not run with a reason")
    func everyBlockAccountedFor() throws {
        var run = 0, checked = 0, marked = 0
        for document in Self.documents {
            for block in try Self.blocks(document) where !Self.notExamples.contains(block.language) {
                switch (block.language, block.mark) {
                case (_, .notRun):
                    marked += 1
                case (_, .unknown(let said)):
                    Issue.record("\(block): the comment before it says \"\(said)\"; say `not run, because …`, `file NAME` or `run in the background`")
                case ("sh", .file), ("json", .background):
                    Issue.record("\(block): \(String(describing: block.mark!)) does not apply to a \(block.language) block")
                case ("sh", _):
                    run += 1
                case ("json", _):
                    checked += 1
                default:
                    let advice = "mark it `<!-- example: not run, because … -->`, or, if it is not an example at all "
                        + "(a synopsis, a listing), make it ```text"
                    Issue.record("\(block) is neither run nor checked (only sh and json are): \(advice)")
                }
            }
        }
        #expect(run >= 7 && checked >= 7, "the documents' examples dwindled: \(run) shell blocks run, \(checked) JSON blocks checked")
        print("documentation examples: \(run) shell blocks run, \(checked) JSON blocks checked, \(marked) marked not run")
    }

    @Test("every JSON example is read by the ledger's own parser for it, and every event in one is appended",
          arguments: documentsWithJSON)
    func jsonExamples(_ document: String) async throws {
        let db = try await TestDatabase.create()
        let app = try CLITests.url(db, user: "consent_ledger_app")
        for block in try Self.blocks(document) where block.language == "json" && Self.isExercised(block) {
            let example: JSONExample
            do { example = try JSONExample.check(block) } catch {
                Issue.record("\(error)")
                continue
            }
            guard case .events(let lines) = example else { continue }
            // Each block in a log of its own: the documents may show one event twice.
            let appended = try await CLIRunner.onOwnThread {
                try CLIRunner.runBlocking(["append", "--log", "doc-\(block.line)", "--database-url", app, "-"], input: lines.joined(separator: "\n"))
            }
            #expect(appended.status == 0, "\(block): append refused it: \(appended.stderr)\n\(block.code)")
        }
    }

    @Test("the shell examples of each document run in order, against a real database and server, and each exits 0",
          arguments: documentsWithCommands)
    func shellExamples(_ document: String) async throws {
        let db = try await TestDatabase.create()
        // The documents' own production steps (createdb, export DATABASE_URL=…) are not run; this
        // stands for them. Everything else, API keys included, the documents make themselves.
        let shell = try ExampleShell(environment: ["DATABASE_URL": try CLITests.url(db, user: "postgres")])
        defer { shell.close() }
        // The documents' server listens where the test says: any free port.
        shell.replace("--port 8080", with: "--port 0")
        var serverStarted = false
        for block in try Self.blocks(document) where Self.isExercised(block) {
            if block.language == "json" {
                if case .file(let name) = block.mark {
                    try Data((block.code + "\n").utf8).write(to: shell.folder.appendingPathComponent(name))
                }
                continue
            }
            if block.code.contains("ledger.example.com") && !serverStarted {
                Issue.record("\(block) talks to the server before any example starts one:\n\(block.code)")
                return
            }
            if block.mark == .background {
                let log = try shell.runInBackground(block.code)
                let base = try await Self.ready(log: log, shell: shell, block: block)
                shell.replace("https://ledger.example.com", with: base)
                serverStarted = true
                continue
            }
            // A reader types the next command seconds later, by when the server has folded what it
            // was sent; the test waits for that instead (`subjects` reads the live projections).
            if serverStarted { try await Self.projectionsCaughtUp(db) }
            let code = block.code
            let outcome = try await CLIRunner.onOwnThread { try shell.run(code) }
            guard outcome.status == 0 else {
                Issue.record("\(block) exited with \(outcome.status):\n\(shell.script(block.code))\n--- it printed:\n\(outcome.output)")
                return  // the blocks after it build on it
            }
        }
    }

    /// Returns once every projection is built and has folded every log to its head (or stalled on
    /// it, which the next block then shows).
    static func projectionsCaughtUp(_ db: TestDatabase) async throws {
        struct NotCaughtUp: Error, CustomStringConvertible { let description: String }
        try await db.as(.administrator) { pool in
            let deadline = Date().addingTimeInterval(120)  // a bound for a server that never catches up, not a speed check
            var statuses: [ProjectionStatus] = []
            while Date() < deadline {
                statuses = try await ProjectionStatus.all(pool: pool)
                let done = statuses.allSatisfy { status in
                    status.state == .current && status.logs.allSatisfy { $0.lag == 0 || $0.stall != nil }
                }
                if done { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw NotCaughtUp(description: "serve's projections did not catch up: \(statuses)")
        }
    }

    /// The base URL of the server a background block started, once its `/ready` answers 200.
    static func ready(log: URL, shell: ExampleShell, block: MarkdownExample) async throws -> String {
        struct NotReady: Error, CustomStringConvertible { let description: String }
        let deadline = Date().addingTimeInterval(120)  // a bound for a server that never comes up, not a speed check
        var base: String?
        while Date() < deadline, shell.backgroundRunning {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if base == nil, let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
               let port = line.split(separator: ":").last {
                base = "http://127.0.0.1:\(port)"
            }
            if let base, let (_, response) = try? await URLSession.shared.data(for: URLRequest(url: URL(string: base + "/ready")!)),
               (response as? HTTPURLResponse)?.statusCode == 200 {
                return base
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw NotReady(description: "\(block) did not become ready:\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
