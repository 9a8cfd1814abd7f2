import Foundation
import LedgerCore
import LedgerPostgres
import Testing

@Suite("The report commands")
struct ReportCLITests {
    @Test("report regulator writes JSON, CSV and HTML with FILE.sha256, the same report each time; bad input is refused before any work")
    func regulatorFormats() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reports-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = ["report", "regulator", "--log", "tx", "--jurisdiction", "US-TX", "--from", "2026-10-01", "--to", "2026-10-15",
                    "--database-url", auditor]
        var seals: Set<String> = []
        for format in ["json", "csv", "html"] {
            let path = folder.appendingPathComponent("regulator." + format).path
            let outcome = try await CLIRunner.run(base + ["--format", format, "--out", path])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let bytes = try #require(FileManager.default.contents(atPath: path))
            let sidecar = try String(contentsOfFile: path + ".sha256", encoding: .utf8)
            #expect(sidecar == LedgerHash.hex(LedgerHash.sha256(Array(bytes))) + "  regulator.\(format)\n")
            // Readable by its owner only: a report names children and their parents' answers.
            for file in [path, path + ".sha256"] {
                let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
                #expect(mode == 0o600, "\(file) is \(String(mode ?? 0, radix: 8))")
            }
            #expect(outcome.stderr.contains("as of position 35") && outcome.stderr.contains("integrity checked"))
            if format == "json" {
                let report = try JSONParser.parse(Array(bytes))
                #expect(ReportSeal.verify(report) && report["consent"]?["questionsSent"] == 4)
                seals.insert(report["sha256"]!.stringValue!)
            } else {
                // CSV and HTML name the seal of the JSON report they show.
                seals.insert(String(outcome.stderr.split(separator: "sealed ").last!.prefix(64)))
            }
        }
        #expect(seals.count == 1)
        let stdout = try await CLIRunner.run(base + ["--format", "csv"])
        #expect(stdout.stdout.hasPrefix(RegulatorCSV.columns.joined(separator: ",") + "\r\n"))
        #expect(stdout.stdout.contains("consent,approved,,2,,"))

        let badJurisdiction = try await CLIRunner.run(["report", "regulator", "--log", "tx", "--jurisdiction", "Texas", "--from", "2026-10-01",
                                                 "--to", "2026-10-15", "--database-url", auditor])
        #expect(badJurisdiction.status != 0 && badJurisdiction.stderr.contains("US-TX"))
        let badDay = try await CLIRunner.run(base.map { $0 == "2026-10-15" ? "2026-10-32" : $0 })
        #expect(badDay.status != 0 && badDay.stderr.contains("--to 2026-10-32 is neither a day"))
        let policy = folder.appendingPathComponent("policy.json").path
        try Data(#"{"rescissionEnforcementWindowHours": "a day"}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let badPolicy = try await CLIRunner.run(base + ["--policy", policy])
        #expect(badPolicy.status != 0 && badPolicy.stderr.contains("rescissionEnforcementWindowHours must be a whole number of hours"))
    }

    @Test("--as-of takes a time on the ledger's clock (the last position recorded by then) and --policy names the issuer on the page")
    func asOfTimeAndPolicy() async throws {
        let db = try await TestDatabase.create()
        let app = try CLITests.url(db, user: "consent_ledger_app")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let first = try await CLIRunner.run(["append", "--log", "acme", "--database-url", app, "-"], input: (0..<3).map { _ in Fixtures.line() }.joined(separator: "\n"))
        #expect(first.status == 0, "\(first.stderr)")
        let between = try await db.as(.auditor) { client in
            var text = ""
            for try await value in try await client.query(
                "SELECT to_char(max(recorded_at) AT TIME ZONE 'UTC' + interval '1 millisecond', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM ledger.events"
            ).decode(String.self) { text = value }
            return text
        }
        try await Task.sleep(for: .milliseconds(20))
        let second = try await CLIRunner.run(["append", "--log", "acme", "--database-url", app, "-"], input: (0..<2).map { _ in Fixtures.line() }.joined(separator: "\n"))
        #expect(second.status == 0, "\(second.stderr)")

        let atTime = try await CLIRunner.run(["report", "consent-register", "--log", "acme", "--as-of", between, "--database-url", auditor])
        #expect(atTime.status == 0, "\(atTime.stderr)")
        #expect(try JSONParser.parse(atTime.stdout)["ledger"]?["position"]?.intValue == 3)
        let before = try await CLIRunner.run(["report", "consent-register", "--log", "acme", "--as-of", "2020-01-01", "--database-url", auditor])
        #expect(before.status == 1 && before.stderr.contains("nothing of log acme was recorded by 2020-01-01T00:00:00Z (the ledger's clock)"), "\(before.stderr)")
        let nonsense = try await CLIRunner.run(["report", "consent-register", "--log", "acme", "--as-of", "yesterday", "--database-url", auditor])
        #expect(nonsense.status != 0 && nonsense.stderr.contains("--as-of yesterday is neither a day"), "\(nonsense.stderr)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let policy = folder.appendingPathComponent("policy.json").path
        try Data(#"{"issuer": {"organisation": "Example Kids Ltd"}, "dateOfIssue": "2026-11-24"}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let page = try await CLIRunner.run(["report", "consent-register", "--log", "acme", "--format", "html", "--policy", policy, "--database-url", auditor])
        #expect(page.status == 0 && page.stdout.contains("Issued by <strong>Example Kids Ltd</strong>; date of issue <strong>2026-11-24</strong>."))
        try Data(#"{"dateOfIssue": "2026-11-31"}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let bad = try await CLIRunner.run(["report", "consent-register", "--log", "acme", "--format", "html", "--policy", policy, "--database-url", auditor])
        #expect(bad.status == 1 && bad.stderr.contains("--policy \(policy): dateOfIssue must be a calendar date"), "\(bad.stderr)")
    }
}
