import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportHTML
import LedgerSimulation

/// `consent-ledger demo`: the first thing to run.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the embedded database, create the schema, append a small realistic history, verify it, project it, replay a subject, sign and prove.",
        discussion: """
            Appends to the log `demo`: first one family's story told event by event (a teen's age range \
            shared as declared by a guardian, a PermissionKit question about a significant change and the \
            parent's approval, an age-rating exception approved in person), then a simulated history of \
            --families families over --days days (consent-ledger simulate), and verifies the log; folds it \
            into the projections, replays the story, explains a feature, signs a checkpoint (creating a \
            signing key beside the database on first use), proves one record's inclusion and checks the proof \
            offline, and writes the three reports. Running it again appends nothing (every batch's \
            idempotency key is known).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log to use.")
    var log: String = "demo"

    @Option(help: "How many simulated families to add after the story.")
    var families: Int = 25

    @Option(help: "How many days the simulated history covers.")
    var days: Int = 30

    func run() async throws {
        let target = try database.target(creating: true)
        Console.note("1. database: \(target.displayName)")
        var stopWhenDone = false
        if case .embedded(let cluster) = target {
            switch try cluster.status() {
            case .notCreated: Console.note("   creating a private PostgreSQL cluster there (first run only)"); stopWhenDone = true
            case .stopped: stopWhenDone = true
            case .running: break
            }
        }
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true, progress: { Console.note("   " + $0) }) { pool in
            let outcome = try await Migrator(pool: pool).migrate()
            Console.note("2. schema: version \(outcome.version) (\(outcome.previousVersion == nil ? "created" : "already there; re-applied, nothing changed"))")
        }
        if stopWhenDone, case .embedded(let cluster) = target { LedgerDatabase.stopOnInterruption(cluster) }
        defer {
            if stopWhenDone, case .embedded(let cluster) = target {
                LedgerDatabase.forgetOnInterruption(cluster)
                try? cluster.stop()
            }
        }
        let events = try DemoHistory.lines.enumerated().map { index, line in
            do { return try EventInput(line: Array(line.utf8)) } catch { throw LedgerError.locating(error, line: index + 1) }
        }
        let simulator = try HistorySimulator(families: families, days: days, seed: 2026, start: "2026-10-01T00:00:00Z")
        let (result, simulated, report) = try await Ledger.with(target) { ledger in
            let result = try await ledger.append(log: log, events: events)
            // The simulated neighbourhood, in batches of 500 (each batch atomic and idempotent).
            var simulated = (stored: 0, replayed: 0, byType: [String: Int]())
            var batch: [EventInput] = []
            func flush() async throws {
                guard !batch.isEmpty else { return }
                let appended = try await ledger.append(log: log, events: batch)
                if appended.idempotentReplay { simulated.replayed += batch.count } else { simulated.stored += batch.count }
                batch.removeAll(keepingCapacity: true)
            }
            for line in simulator.lines() {
                let event = try EventInput(line: Array(line.utf8))
                simulated.byType[event.envelope.type, default: 0] += 1
                batch.append(event)
                if batch.count == 500 { try await flush() }
            }
            try await flush()
            return (result, simulated, try await ledger.verify(log: log).chain)
        }
        if result.idempotentReplay {
            Console.note("3. appended nothing: the demo history is already in log \(log) at positions \(result.firstPosition!)-\(result.lastPosition!) (same idempotency key, so the retry wrote nothing)")
        } else {
            Console.note("3. appended \(result.events.count) events to log \(log), positions \(result.firstPosition!)-\(result.lastPosition!):")
            for (event, input) in zip(result.events, events) {
                Console.note("   \(String(event.position).leftPad(4))  \(input.envelope.type.padding(toLength: 26, withPad: " ", startingAt: 0)) \(event.stream) v\(event.streamVersion)")
            }
        }
        let total = simulated.stored + simulated.replayed
        Console.note("   then a simulated history of \(families) families over \(days) days: \(total) events"
                     + (simulated.replayed > 0 ? " (\(simulated.replayed) already in the ledger, not stored twice)" : ""))
        for (type, count) in simulated.byType.sorted(by: { $0.value > $1.value }).prefix(8) {
            Console.note("     \(String(count).leftPad(6))  \(type)")
        }
        guard report.passed else {
            Console.note("4. verify FAILED: \(report.problem!)")
            throw ExitCode(1)
        }
        Console.note("4. verified log \(log): \(report.verifiedCount) events, every leaf hash, chain link and record checks; head chain hash \(LedgerHash.hex(report.lastChainHash))")
        try await Ledger.with(target) { ledger in
            Console.note("5. projections: folding the log into the read models")
            try await ProjectionRunner(pool: ledger.pools.administrator).runOnce(note: { Console.note("   " + $0) })
            for line in try await DemoProjectionSummary.lines(log: log, pool: ledger.pools.administrator) { Console.note("   " + line) }
            Console.note("6. replay of subject \(DemoHistory.subject), the story at the top of the log:")
            let history = try await ledger.replay(log: log, subject: DemoHistory.subject)
            for line in Replay.lines(history) { Console.note("   " + line) }
            Console.note("7. why was sharedRooms open for \(DemoHistory.subject)?")
            let answer = try await ledger.explain(log: log, subject: DemoHistory.subject, feature: "sharedRooms", asOf: .head)
            for line in Explain.lines(answer) { Console.note("   " + line) }
        }
        let folder = reportFolder(target: target)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await signAndProve(target: target, folder: folder)
        try await writeReports(target: target, folder: folder)
        let me = Self.invocation
        Console.note("""

            Try next, with the binary just built (each answers in well under a second; `swift run` would build again first):
              \(me) events --log \(log)            # the records as hashed, with their hashes
              \(me) verify --log \(log)            # recompute every hash, the Merkle tree and checkpoints
              \(me) prove consistency --log \(log) --from 10   # this checkpoint extends the tree of 10
              \(me) events --log \(log) --stream subject-\(DemoHistory.subject)
              \(me) replay --log \(log) --subject \(DemoHistory.subject) --as-of 2026-11-20T17:00:00Z --clock occurred
              \(me) project status                # each read model's position and lag
              \(me) report regulator --log \(log) --jurisdiction US-CA --from 2026-10-01 --to 2026-11-01 --format csv
              tools/render-reports <the reports above>              # PNG and A4/Letter PDF through headless Chromium
              \(me) catalogue                     # every event type and field (docs/events.md)
              \(me) simulate --families 100 --days 30 | \(me) append --log sim --batch-size 1000 -
              \(me) db start                      # keep the database running; prints a psql command
            """)
    }
}

extension Demo {
    /// How to run this binary again from the current folder: its path, relative when it lies
    /// below (`.build/x86_64-unknown-linux-gnu/debug/consent-ledger`), so that the suggestions
    /// skip `swift run`'s build.
    static var invocation: String {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        var path = resolved(CommandLine.arguments[0])
        // SwiftPM's `.build/debug` (or `release`) link names the same binary, shorter.
        if let build = path.range(of: "/.build/") {
            let configuration = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
            let short = String(path[..<build.upperBound]) + configuration + "/" + URL(fileURLWithPath: path).lastPathComponent
            if resolved(short) == path { path = short }
        }
        let here = resolved(FileManager.default.currentDirectoryPath) + "/"
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }

    /// Where the demo writes what an auditor would open: beside the embedded database (or
    /// ./consent-ledger-reports for a server of one's own).
    func reportFolder(target: DatabaseTarget) -> URL {
        if case .embedded(let cluster) = target { return cluster.directory.appendingPathComponent("reports") }
        return URL(fileURLWithPath: "consent-ledger-reports")
    }

    /// Step 9: the three reports as HTML pages an auditor can open.
    func writeReports(target: DatabaseTarget, folder: URL) async throws {
        Console.note("9. reports, as printable HTML pages (also --format json or csv), pinned to that checkpoint:")
        try await Ledger.with(target) { ledger in
            let register = try await ledger.consentRegister(.init(log: log))
            let regulator = try await ledger.regulatorReport(
                .init(log: log, jurisdiction: "US", from: AsOf.date("2026-10-01T00:00:00Z")!, to: AsOf.date("2026-12-01T00:00:00Z")!))
            let dossier = try await ledger.dossier(log: log, subject: DemoHistory.subject)
            for (name, json, seal, what) in [
                ("consent-register.html", register.json, register.sha256, "who approved what and when: \(register.rows.count) items"),
                ("regulator-US-2026-10-01-2026-12-01.html", regulator.json, regulator.sha256,
                 "US, October and November 2026: \(regulator.report["violations"]?.arrayValue?.count ?? 0) violations found"),
                ("dossier-\(DemoHistory.subject).html", dossier.json, dossier.sha256, "the teen's whole history: \(dossier.steps.count) events"),
            ] {
                let path = folder.appendingPathComponent(name).path
                _ = try ReportOutput.write(try ReportEncoding.html.bytes(json: json, csv: { "" }), sealedAs: seal, to: path)
                Console.note("   \(path)  (\(what); JSON seal \(seal.prefix(16))…)")
            }
        }
    }
}

private extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
