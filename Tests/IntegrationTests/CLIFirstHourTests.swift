import Foundation
import LedgerCluster
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// The defects a new user met in their first hour with the CLI (issue 14), each as they met it.
@Suite("The CLI in a newcomer's first hour")
struct CLIFirstHourTests {
    /// A database of the shared test cluster with `count` events in log `acme`, and its URLs.
    static func ledger(events count: Int) async throws -> (db: TestDatabase, app: String, auditor: String, admin: String) {
        let db = try await TestDatabase.create()
        let app = try CLITests.url(db, user: "consent_ledger_app")
        if count > 0 {
            let input = (0..<count).map { Fixtures.line(stream: "subject-p_\($0 % 50)") }.joined(separator: "\n")
            let appended = try await CLIRunner.run(["append", "--log", "acme", "--database-url", app, "-"], input: input)
            #expect(appended.status == 0, "\(appended.stderr)")
        }
        return (db, app, try CLITests.url(db, user: "consent_ledger_auditor"), try CLITests.url(db, user: "postgres"))
    }

    /// A project folder with an embedded ledger made by `migrate` and `count` events in log `acme`.
    static func embeddedProject(events count: Int) async throws -> URL {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("cl-project-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("src/deep"), withIntermediateDirectories: true)
        let migrated = try await CLIRunner.run(["migrate"], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stderr.contains("creating a new embedded database in \(project.path)/.consent-ledger"), "\(migrated.stderr)")
        let input = (0..<count).map { Fixtures.line(stream: "subject-p_\($0 % 50)") }.joined(separator: "\n")
        let appended = try await CLIRunner.run(["append", "--log", "acme", "-"], input: input, in: project)
        #expect(appended.status == 0, "\(appended.stderr)")
        return project
    }

    /// The embedded cluster of a project folder, as the tool finds it.
    static func cluster(of project: URL) -> LocalCluster {
        LocalCluster.forProject(folder: project.appendingPathComponent(".consent-ledger")).cluster
    }

    /// Waits until `cluster` is stopped: true if it stopped within `seconds` (a bound, not a speed check).
    static func stops(_ cluster: LocalCluster, within seconds: Int) async throws -> Bool {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while Date() < deadline {
            if case .stopped = try await CLIRunner.onOwnThread({ try cluster.status() }) { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    /// Stops the project's cluster and removes the folder, on a thread of its own (called from a
    /// `defer`; `pg_ctl stop` waits, and must not hold one of Swift concurrency's threads).
    static func remove(_ project: URL) {
        let cluster = cluster(of: project)
        Thread {
            try? cluster.stop()
            try? FileManager.default.removeItem(at: project)
        }.start()
    }

    // MARK: Output to a closed pipe, signals

    @Test("events into a pipe closed early (| head) ends quietly with 141, no crash")
    func closedPipe() async throws {
        let ledger = try await Self.ledger(events: 3_000)
        let outcome = try await CLIRunner.runClosingOutput(["events", "--log", "acme", "--database-url", ledger.auditor], after: 200)
        #expect(outcome.stdout.hasPrefix(#"{"event":"#))
        #expect(outcome.status == 141, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"), "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    }

    @Test("a closed pipe and SIGTERM each stop the embedded database the command started")
    func embeddedStopped() async throws {
        let project = try await Self.embeddedProject(events: 3_000)
        defer { Self.remove(project) }
        let cluster = Self.cluster(of: project)
        #expect(try cluster.status() == .stopped)

        let piped = try await CLIRunner.runClosingOutput(["events", "--log", "acme"], after: 100, in: project)
        #expect(piped.status == 141, "\(piped.stderr)")
        #expect(try cluster.status() == .stopped, "the closed pipe left the embedded PostgreSQL running")

        let (process, stderr, pipe) = try CLIRunner.start(["events", "--log", "acme"], in: project)
        defer { try? FileManager.default.removeItem(at: stderr) }
        // The command blocks once the unread pipe is full; by then it has started the database.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try? cluster.status()) == .stopped || (try? cluster.status()) == .notCreated {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(1))
        process.terminate()  // SIGTERM
        try CLIRunner.wait(process, arguments: ["events"], timeout: 60)
        try? pipe.fileHandleForReading.close()
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 128 + SIGTERM, "\(said)")
        #expect(said.contains("stopping the embedded PostgreSQL"), "\(said)")
        #expect(!said.contains("Fatal error"), "\(said)")
        #expect(try await Self.stops(cluster, within: 60), "SIGTERM left the embedded PostgreSQL running")
    }

    // MARK: Where the embedded database is

    @Test("the embedded database is found from any folder below the project; elsewhere nothing is created")
    func embeddedFromAnyFolder() async throws {
        let project = try await Self.embeddedProject(events: 5)
        defer { Self.remove(project) }
        let below = try await CLIRunner.run(["logs"], in: project.appendingPathComponent("src/deep"))
        #expect(below.status == 0, "\(below.stderr)")
        #expect(below.stdout.hasPrefix("acme\t5\t"), "\(below.stdout)")
        #expect(below.stderr.contains("using the embedded database in \(project.path)/.consent-ledger"), "\(below.stderr)")

        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("cl-elsewhere-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let lost = try await CLIRunner.run(["logs"], in: elsewhere)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("no embedded database found"), "\(lost.stderr)")
        #expect(lost.stderr.contains("consent-ledger migrate"), "\(lost.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent(".consent-ledger").path),
                "a read command created a second cluster")
        let migrate = try await CLIRunner.run(["verify", "--log", "acme", "--data-dir", elsewhere.appendingPathComponent("typo").path])
        #expect(migrate.status == 1 && migrate.stderr.contains("there is no embedded database in"), "\(migrate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("typo").path))
    }

    // MARK: Errors that say what to do

    @Test("keys create on a database never migrated: it migrates first (the roles it connects as are the migration's)")
    func keysCreateOnAFreshDatabase() async throws {
        // A cluster of the tool's own making but no schema and no roles yet (`db start` would do
        // the same, but its server keeps the runner's output pipe open).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cl-fresh-\(UUID().uuidString.prefix(8))")
        let cluster = LocalCluster(directory: folder, durable: false)
        defer {
            Thread {
                try? cluster.stop()
                try? FileManager.default.removeItem(at: folder)
            }.start()
        }
        _ = try await CLIRunner.onOwnThread { try cluster.start() }
        let created = try await CLIRunner.run(["keys", "create", "--log", "acme", "--role", "ingest", "--data-dir", folder.path])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("cl_"), "\(created.stdout)")
    }

    @Test("keys list, exactly as README shows it, lists every log's keys")
    func keysList() async throws {
        let ledger = try await Self.ledger(events: 0)
        _ = try await ledger.db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "acme", role: .auditor, label: "first")
        }
        let listed = try await CLIRunner.run(["keys", "list", "--database-url", ledger.admin])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\tacme\tauditor\t") && listed.stdout.contains("first"), "\(listed.stdout)")
        let all = try await ledger.db.as(.administrator) { client in try await APIKeyStore(pool: client).list() }
        #expect(all.map(\.label) == ["first"])
    }

    @Test("a mistyped command is named, with the command it resembles")
    func typo() async throws {
        let outcome = try await CLIRunner.run(["apend", "--log", "acme"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("'apend' is not a command") && outcome.stderr.contains("Did you mean 'append'?"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Unknown option"))
        let nested = try await CLIRunner.run(["keys", "lsit"])
        #expect(nested.stderr.contains("Did you mean 'list'?"), "\(nested.stderr)")
    }

    @Test("project run --follow on a database without the schema stops with that error instead of looping")
    func followUnmigrated() async throws {
        let ledger = try await Self.ledger(events: 0)
        guard case .embedded(let cluster) = ledger.db.target else { return }
        let bare = "postgres:///postgres?host=\(cluster.socketDirectory)&user=postgres"
        let outcome = try await CLIRunner.run(["project", "run", "--follow", "--poll-seconds", "1", "--database-url", bare], timeout: 120)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("the database has no ledger schema") && outcome.stderr.contains("consent-ledger migrate"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("PSQLError"), "\(outcome.stderr)")
    }

    @Test("connection errors say what is wrong in words, not the networking library's internals")
    func connectionErrors() async throws {
        let refused = try await CLIRunner.run(["logs", "--database-url", "postgres://someone@127.0.0.1:1/ledger"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing is listening there (connection refused)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("SingleConnectionFailure") && !refused.stderr.contains("errno"), "\(refused.stderr)")

        let ledger = try await Self.ledger(events: 0)
        guard case .embedded(let cluster) = ledger.db.target else { return }
        let missing = "postgres:///no_such_db?host=\(cluster.socketDirectory)&user=postgres"
        let migrate = try await CLIRunner.run(["migrate", "--database-url", missing])
        #expect(migrate.status == 1)
        #expect(migrate.stderr.contains("does not exist") && migrate.stderr.contains("createdb no_such_db"), "\(migrate.stderr)")
    }

    // MARK: No false answers

    @Test("explain refuses a subject, feature or log that does not exist instead of answering CLOSED")
    func explainRefusesTheUnknown() async throws {
        let ledger = try await Self.ledger(events: 0)
        let gate = #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"subject-p_kid1","type":"AccessGateApplied","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"p_kid1","actor":{"kind":"app"},"app":{"bundleId":"com.example.kids","platform":"iOS"},"payload":{"feature":"chat","state":"closed","basis":[],"policyVersion":"2026-11"}}"#
        let appended = try await CLIRunner.run(["append", "--log", "acme", "--database-url", ledger.app, "-"], input: gate)
        #expect(appended.status == 0, "\(appended.stderr)")

        let subject = try await CLIRunner.run(["explain", "--log", "acme", "--subject", "p_kid", "--feature", "chat", "--database-url", ledger.auditor])
        #expect(subject.status == 1 && !subject.stdout.contains("CLOSED"))
        #expect(subject.stderr.contains("log acme has no event about subject p_kid") && subject.stderr.contains("p_kid1"), "\(subject.stderr)")

        let feature = try await CLIRunner.run(["explain", "--log", "acme", "--subject", "p_kid1", "--feature", "chta", "--database-url", ledger.auditor])
        #expect(feature.status == 1 && feature.stderr.contains("names the feature chta") && feature.stderr.contains("chat"), "\(feature.stderr)")

        let log = try await CLIRunner.run(["explain", "--log", "acmee", "--subject", "p_kid1", "--feature", "chat", "--database-url", ledger.auditor])
        #expect(log.status == 1 && log.stderr.contains("there is no log named acmee"), "\(log.stderr)")

        let known = try await CLIRunner.run(["explain", "--log", "acme", "--subject", "p_kid1", "--feature", "chat", "--database-url", ledger.auditor])
        #expect(known.status == 0 && known.stdout.contains("CLOSED"), "\(known.stderr)")

        let replay = try await CLIRunner.run(["replay", "--log", "acme", "--subject", "p_kid", "--database-url", ledger.auditor])
        #expect(replay.status == 1 && replay.stderr.contains("no event about subject p_kid"), "\(replay.stderr)")
        let state = try await CLIRunner.run(["state", "--log", "acme", "--subject", "p_kid", "--database-url", ledger.auditor])
        #expect(state.status == 1 && state.stderr.contains("no event about subject p_kid"), "\(state.stderr)")
    }

    @Test("a time before anything was recorded says which clock it was read on and what --clock occurred gives")
    func asOfNamesTheClock() async throws {
        let ledger = try await Self.ledger(events: 4)  // occurredAt 2026-11-22, recorded now
        let outcome = try await CLIRunner.run(["state", "--log", "acme", "--as-of", "2026-11-23T00:00:00Z", "--database-url", ledger.auditor])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("0 subjects"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("read on the ledger's clock (recordedAt)") && outcome.stderr.contains("--clock occurred")
                && outcome.stderr.contains("4 events had occurred by then"), "\(outcome.stderr)")
        let occurred = try await CLIRunner.run(["state", "--log", "acme", "--as-of", "2026-11-23T00:00:00Z", "--clock", "occurred",
                                          "--database-url", ledger.auditor])
        #expect(occurred.status == 0 && !occurred.stderr.contains("nothing of log acme"), "\(occurred.stderr)")
        let before = try await CLIRunner.run(["state", "--log", "acme", "--as-of", "2026-11-21T00:00:00Z", "--clock", "occurred",
                                        "--database-url", ledger.auditor])
        #expect(before.stderr.contains("nothing of log acme had occurred by then") && before.stderr.contains("2026-11-22T10:15:00Z"),
                "\(before.stderr)")
    }

    // MARK: Quiet by default

    @Test("append prints a summary, not a line per event, unless --verbose")
    func appendSummary() async throws {
        let ledger = try await Self.ledger(events: 0)
        let input = (0..<7).map { _ in Fixtures.line() }.joined(separator: "\n")
        let quiet = try await CLIRunner.run(["append", "--log", "acme", "--database-url", ledger.app, "-"], input: input)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        #expect(quiet.stderr.contains("appended 7 events to log acme (positions 1 to 7)"), "\(quiet.stderr)")
    }

    @Test("verify with no checkpoint yet says so instead of 'a tree of 0 leaves verified'")
    func verifyWithoutCheckpoint() async throws {
        let ledger = try await Self.ledger(events: 3)
        let outcome = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", ledger.auditor])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("no Merkle tree or signed checkpoint yet"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("0 leaves"))
    }

    // MARK: Finding a subject

    @Test("subjects finds by prefix and by a denial, pages on, and says when the projections are not built")
    func subjects() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, log: "acme", families: 30, days: 20, seed: 14)
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let notBuilt = try await CLIRunner.run(["subjects", "--log", "acme", "--database-url", auditor])
        #expect(notBuilt.status == 1 && notBuilt.stderr.contains("project run"), "\(notBuilt.stderr)")
        let (denied, everyone) = try await db.as(.administrator) { client in
            try await ProjectionRunner(pool: client).runOnce()
            var denied: [String] = []
            for try await s in try await client.query(
                "SELECT DISTINCT subject FROM consent_register.entries WHERE log_id = 'acme' AND answer = 'denial' ORDER BY subject"
            ).decode(String.self) { denied.append(s) }
            var everyone: [String] = []
            for try await s in try await client.query(
                "SELECT DISTINCT subject FROM ledger.events WHERE log_id = 'acme' AND subject IS NOT NULL ORDER BY subject"
            ).decode(String.self) { everyone.append(s) }
            return (denied, everyone)
        }
        #expect(!denied.isEmpty, "the simulated history has denials")

        let withDenial = try await CLIRunner.run(["subjects", "--log", "acme", "--has", "denial", "--limit", "1000", "--format", "json",
                                            "--database-url", auditor])
        #expect(withDenial.status == 0, "\(withDenial.stderr)")
        let listed = try withDenial.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["subject"]?.stringValue ?? "" }
        #expect(listed == denied)

        let prefix = String(everyone[everyone.count / 2].prefix(4))
        let byPrefix = try await CLIRunner.run(["subjects", "--log", "acme", "--prefix", prefix, "--limit", "1000", "--database-url", auditor])
        let names = byPrefix.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(!names.isEmpty && names.allSatisfy { $0.hasPrefix(prefix) }, "\(byPrefix.stdout)")
        #expect(names.count <= everyone.filter { $0.hasPrefix(prefix) }.count)

        let paged = try await CLIRunner.run(["subjects", "--log", "acme", "--limit", "2", "--database-url", auditor])
        #expect(paged.stdout.split(separator: "\n").count == 2 && paged.stderr.contains("add --after"), "\(paged.stderr)")
    }
}
