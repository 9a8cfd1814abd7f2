import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// The dispute histories of docs/disputes/ (the specification of the rules, docs/disputes/README.md),
/// each tried as a compliance officer would: appended through the CLI to a log of its own, the
/// projections run, then the judge's findings, `explain` on each decision the history names, the
/// regulator report for its period (its violations, withdrawals counted and the laws it is titled by)
/// and the consent register compared with what the history expects; each dossier must carry every
/// event its findings cite.
@Suite("Dispute histories (docs/disputes)")
struct DisputeHistoryTests {
    /// docs/disputes/ in this checkout.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/disputes")

    /// Every history's name (`01-withdrawn-then-reopened`), in order.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".ndjson") }.map { String($0.dropLast(".ndjson".count)) }.sorted()
    }()

    @Test("docs/disputes holds the histories, each with its expected verdicts")
    func historiesArePresent() throws {
        #expect(Self.names.count >= 6, "docs/disputes holds \(Self.names.count) histories")
        for name in Self.names {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("\(name).expected.json").path),
                    "\(name).ndjson has no \(name).expected.json")
        }
    }

    // One history at a time: each runs the CLI some ten times, and a dozen at once would load the
    // machine enough to starve the suite's timing-bound server tests.
    @Test("each history gets its expected verdicts from the judge, explain, the regulator report and the register",
          .serialized, arguments: names)
    func verdicts(_ name: String) async throws {
        let events = try String(contentsOf: Self.folder.appendingPathComponent("\(name).ndjson"), encoding: .utf8)
        let expected = try JSONParser.parse(String(contentsOf: Self.folder.appendingPathComponent("\(name).expected.json"),
                                                   encoding: .utf8))
        let db = try await TestDatabase.create()
        let log = "dispute-" + name.prefix(2)
        let app = try CLITests.url(db, user: "consent_ledger_app")
        let admin = try CLITests.url(db, user: "postgres")
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")

        let appended = try await CLIRunner.run(["append", "--log", log, "--database-url", app, "-"], input: events)
        try #require(appended.status == 0, "\(name): append failed: \(appended.stderr)")
        let projected = try await CLIRunner.run(["project", "run", "--database-url", admin])
        try #require(projected.status == 0, "\(name): project run failed: \(projected.stderr)")

        // The judge: every finding of the anomalies projection, rule and position, and whether it
        // needs review (judged without a fact the rules need) where the history says.
        let found = try await db.as(.auditor) { client in
            try await client.raw("""
                SELECT kind, position, needs_review IS NOT NULL FROM anomalies.findings WHERE log_id = \(log) ORDER BY position, kind
                """).map { row in try row.decode((String, Int64, Bool).self) }
        }
        let want = try Self.pairs(expected["findings"])
        #expect(found.map { Pair($0.0, $0.1) } == want, "\(name): the judge found \(found)")
        for item in expected["findings"]?.arrayValue ?? [] {
            guard case .bool(let review)? = item["needsReview"] else { continue }
            let finding = found.first { $0.0 == item["rule"]?.stringValue && Int($0.1) == item["position"]?.intValue }
            #expect(finding?.2 == review, "\(name): \(item) is \(finding?.2 == true ? "" : "not ")marked as needing review")
        }

        // explain: the rules each named decision failed.
        for case let ask in expected["explain"]?.arrayValue ?? [] {
            let subject = try #require(ask["subject"]?.stringValue), feature = try #require(ask["feature"]?.stringValue)
            let at = try #require(ask["at"]?.intValue)
            let run = try await CLIRunner.run(["explain", "--log", log, "--subject", subject, "--feature", feature, "--at", String(at),
                                         "--format", "json", "--database-url", auditor])
            try #require(run.status == 0, "\(name): explain failed: \(run.stderr)")
            let answer = try JSONParser.parse(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let failed = (answer["decisions"]?.arrayValue ?? []).flatMap { decision in
                (decision["rules"]?.arrayValue ?? []).filter { $0["outcome"]?.stringValue == "failed" }
                    .compactMap { $0["rule"]?.stringValue }
            }
            let wantFailed = (ask["failed"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(failed.sorted() == wantFailed.sorted(), "\(name): explain at #\(at) failed \(failed), not \(wantFailed)")
            if wantFailed.isEmpty {
                let text = try await CLIRunner.run(["explain", "--log", log, "--subject", subject, "--feature", feature, "--at", String(at),
                                              "--database-url", auditor])
                #expect(text.stdout.contains("found nothing wrong"), "\(name): explain at #\(at) says \(text.stdout)")
            }
        }

        // The regulator report for the history's period: its violations and rescissions.
        if let regulator = expected["regulator"] {
            let run = try await CLIRunner.run(["report", "regulator", "--log", log,
                                         "--jurisdiction", try #require(regulator["jurisdiction"]?.stringValue),
                                         "--from", try #require(regulator["from"]?.stringValue),
                                         "--to", try #require(regulator["to"]?.stringValue), "--database-url", auditor])
            try #require(run.status == 0, "\(name): report regulator failed: \(run.stderr)")
            let report = try JSONParser.parse(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let violations = try (report["violations"]?.arrayValue ?? []).map { v in
                Pair(try #require(v["rule"]?.stringValue), Int64(try #require(v["position"]?.intValue)))
            }
            #expect(violations.sorted { ($0.position, $0.rule) < ($1.position, $1.rule) } == (try Self.pairs(regulator["violations"])),
                    "\(name): the regulator report lists \(violations)")
            let rescissions = report["consent"]?["rescissions"]?["count"]?.intValue
            #expect(rescissions == regulator["rescissions"]?.intValue, "\(name): the report counts \(String(describing: rescissions)) rescissions")
            // The laws the report is titled and judged by (coverage), and those it names as not in force.
            for (member, key) in [("laws", "laws"), ("lawsNotInForce", "lawsNotInForce")] {
                guard let want = regulator[key]?.arrayValue?.compactMap(\.stringValue) else { continue }
                let named = (report["coverage"]?[member]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
                #expect(named == want, "\(name): the report's coverage \(member) are \(named), not \(want)")
            }
        }

        // The dossier of each subject with findings is self-contained: every event a finding cites is
        // a step of the subject's history or one of the events it carries beside it.
        let subjects = try await db.as(.auditor) { client in
            try await client.raw("SELECT DISTINCT subject FROM anomalies.findings WHERE log_id = \(log) AND subject IS NOT NULL")
                .map { try $0.decode(String.self) }
        }
        for subject in subjects {
            let run = try await CLIRunner.run(["report", "dossier", "--log", log, "--subject", subject, "--database-url", auditor])
            try #require(run.status == 0, "\(name): report dossier failed: \(run.stderr)")
            let dossier = try JSONParser.parse(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let carried = Set(((dossier["steps"]?.arrayValue ?? []) + (dossier["citedEvents"]?.arrayValue ?? [])).compactMap { $0["position"]?.intValue })
            let cited = Set((dossier["findings"]?.arrayValue ?? []).flatMap { ($0["evidencePositions"]?.arrayValue ?? []).compactMap(\.intValue) })
            #expect(cited.isSubset(of: carried), "\(name): \(subject)'s dossier cites \(cited.subtracting(carried).sorted()) without carrying them")
        }

        // The consent register: each named item's answer.
        if let items = expected["register"]?.arrayValue {
            let run = try await CLIRunner.run(["report", "consent-register", "--log", log, "--database-url", auditor])
            try #require(run.status == 0, "\(name): report consent-register failed: \(run.stderr)")
            let rows = try JSONParser.parse(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["rows"]?.arrayValue ?? []
            for item in items {
                let id = try #require(item["id"]?.stringValue)
                let row = rows.first { $0["id"]?.stringValue == id }
                #expect(row?["answer"]?.stringValue == item["answer"]?.stringValue,
                        "\(name): the register's \(id) reads \(String(describing: row?["answer"])), not \(String(describing: item["answer"]))")
            }
        }
    }

    /// A finding or violation: its rule and the position it is about.
    struct Pair: Equatable, CustomStringConvertible {
        let rule: String, position: Int64
        init(_ rule: String, _ position: Int64) { (self.rule, self.position) = (rule, position) }
        var description: String { "\(rule) at #\(position)" }
    }

    /// `[{"rule": …, "position": …}]` in position order, then rule.
    static func pairs(_ value: JSONValue?) throws -> [Pair] {
        try (value?.arrayValue ?? []).map { Pair(try #require($0["rule"]?.stringValue), Int64(try #require($0["position"]?.intValue))) }
            .sorted { ($0.position, $0.rule) < ($1.position, $1.rule) }
    }
}
