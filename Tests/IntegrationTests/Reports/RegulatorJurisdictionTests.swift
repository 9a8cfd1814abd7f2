import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerReportHTML
import LedgerReportModel
import NIOCore
import Testing

/// The regulator report's jurisdiction (issue 16, item 6; decision 0024): codes checked against
/// ISO 3166, `EU` taking in its member states, unknown codes refused at report time and listed
/// when events carry them, and the coverage and retention sections titled by the laws that govern
/// the scope.
///
/// The history, one AgeRangeRequested per subject in October 2026 (positions in order):
///  1 DE download · 2 FR launch · 3 DE-BY download · 4 GB launch · 5 US-TX download · 6 TX launch
///  (not ISO 3166) · 7 US-XX launch (not ISO 3166) · 8 EU launch · 9 TX launch · 10 no jurisdiction
///  · 11 CH launch.
@Suite("Regulator report: jurisdictions")
struct RegulatorJurisdictionTests {
    static let log = "eu"
    static let from = AsOf.date("2026-10-01T00:00:00Z")!
    static let to = AsOf.date("2026-11-01T00:00:00Z")!

    static func id(_ n: Int) -> String { String(format: "e1000000-0000-4000-8000-%012d", n) }

    static let history: [(code: String?, trigger: String)] = [
        ("DE", "download"), ("FR", "launch"), ("DE-BY", "download"), ("GB", "launch"), ("US-TX", "download"), ("TX", "launch"),
        ("US-XX", "launch"), ("EU", "launch"), ("TX", "launch"), (nil, "launch"), ("CH", "launch"),
    ]

    static func append(_ db: TestDatabase) async throws {
        let events = try history.enumerated().map { index, item in
            let n = index + 1
            var event: [String: JSONValue] = [
                "eventId": .string(id(n)), "stream": .string("subject-p_j\(n)"), "type": "AgeRangeRequested", "schemaVersion": 1,
                "occurredAt": .string(String(format: "2026-10-%02dT09:00:00Z", n)), "subject": .string("p_j\(n)"),
                "actor": ["kind": "app"], "app": ["bundleId": "com.example.kidsdraw", "appVersion": "3.0.0", "platform": "iOS"],
                "payload": ["ageGates": [13, 16, 18], "trigger": .string(item.trigger)],
            ]
            if let code = item.code { event["jurisdiction"] = ["code": .string(code), "basis": "storefront"] }
            return try EventInput(json: .object(event))
        }
        try await db.as(.administrator) { client async throws in
            // Stored as sent: a code that is not ISO 3166 is evidence too.
            _ = try await EventStore(pool: client).append(log: log, events: events)
        }
    }

    static func report(_ jurisdiction: String, _ db: TestDatabase) async throws -> RegulatorReport.Result {
        try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(.init(log: log, jurisdiction: jurisdiction, from: from, to: to), pool: client)
        }
    }

    @Test("EU counts the events of DE, FR and DE-BY (and EU itself), says which codes it took in, and never COPPA")
    func europeanUnion() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db)
        let result = try await Self.report("EU", db)
        let report = result.report
        let scope = try #require(report["scope"])
        #expect(scope["eventsInPeriod"] == 11 && scope["eventsWithoutJurisdiction"] == 1)
        #expect(scope["eventsInJurisdiction"] == 4)  // #1 DE, #2 FR, #3 DE-BY, #8 EU; not GB, CH, US-TX
        #expect(scope["code"] == "EU" && scope["kind"] == "group" && scope["name"] == "European Union")
        #expect(scope["membersAsOf"] == "2020-02-01" && scope["withSubdivisions"] == true)
        let members = scope["members"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(members.count == 27 && members.contains("DE") && members.contains("FR") && !members.contains("GB"))
        #expect(RegulatorReportTests.counts(report["ageSignals"]?["requestsByTrigger"])["download"] == 2)
        #expect(RegulatorReportTests.counts(report["ageSignals"]?["requestsByTrigger"])["launch"] == 2)
        #expect(report["coverage"]?["installs"] == 4)

        // Retention is not titled COPPA in the EU, in any of the three forms.
        #expect(report["retention"]?["title"] == "Retention and erasure" && report["retention"]?["laws"] == [])
        #expect(report["coverage"]?["title"] == "Coverage (EU Digital Services Act, Article 28 guidelines)")
        let json = String(decoding: result.json, as: UTF8.self)
        let csv = RegulatorCSV.csv(report)
        let page = try ReportHTML.render(try JSONParser.parse(result.json))
        for (form, text) in [("json", json), ("csv", csv), ("html", page)] {
            #expect(!text.contains("COPPA") && !text.contains("AB 1043") && !text.contains("SB 2420"), "\(form)")
        }
        #expect(csv.contains("retention,title,,Retention and erasure,,"))
        #expect(csv.contains("coverage,laws.id,eu-dsa-28,eu-dsa-28,,"))
        #expect(page.contains("<section id=\"retention\">\n<h2>Retention and erasure</h2>"))
        #expect(page.contains("its 27 member states, as of 2020-02-01"))
        #expect(ReportSeal.verify(report))

        let germany = try await Self.report("DE", db).report
        #expect(germany["scope"]?["eventsInJurisdiction"] == 2)  // DE and DE-BY
    }

    @Test("codes that are not ISO 3166 are stored and listed in every report's scope with their first event, and counted in none")
    func unknownCodesListed() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db)
        for jurisdiction in ["US", "EU", "US-TX"] {
            let scope = try #require(try await Self.report(jurisdiction, db).report["scope"])
            #expect(scope["eventsWithUnknownJurisdiction"] == 3, "\(jurisdiction)")
            #expect(scope["unknownCodes"] == [
                ["code": "TX", "events": 2, "evidencePositions": [6], "evidenceEventIds": [.string(Self.id(6))]],
                ["code": "US-XX", "events": 1, "evidencePositions": [7], "evidenceEventIds": [.string(Self.id(7))]],
            ], "\(jurisdiction)")
        }
        // US takes in US-TX, but not US-XX, which is no subdivision of the US.
        let us = try await Self.report("US", db)
        #expect(us.report["scope"]?["eventsInJurisdiction"] == 1 && us.report["scope"]?["codesTakenIn"] == 58)
        let page = try ReportHTML.render(try JSONParser.parse(us.json))
        #expect(page.contains("<h3>Unknown jurisdiction codes</h3>"))
    }

    @Test("a US-TX report's coverage is titled Texas SB 2420 and its retention COPPA, in JSON, CSV and HTML; never AB 1043")
    func texasTitles() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)  // it has California events too (#23, #24)
        let result = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(RegulatorReportTests.parameters("US-TX"), pool: client)
        }
        let coverage = try #require(result.report["coverage"])
        #expect(coverage["title"] == "Coverage (Texas SB 2420)")
        #expect(coverage["laws"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["us-tx-sb2420"])
        #expect(coverage["lawsForParts"] == [])
        #expect(result.report["retention"]?["title"] == "Retention and erasure (COPPA)")
        let json = String(decoding: result.json, as: UTF8.self)
        let csv = RegulatorCSV.csv(result.report)
        let page = try ReportHTML.render(try JSONParser.parse(result.json))
        for (form, text) in [("json", json), ("csv", csv), ("html", page)] {
            #expect(text.contains("Texas SB 2420") && !text.contains("AB 1043") && !text.contains("California"), "\(form)")
        }
        #expect(page.contains("<section id=\"coverage\">\n<h2>Coverage (Texas SB 2420)</h2>"))
        #expect(page.contains("<a href=\"#coverage\">Coverage (Texas SB 2420)</a>"))
        #expect(page.contains("<h2>Retention and erasure (COPPA)</h2>"))

        // A California report of the same log and period (October 2026) is not titled by California's
        // law, operative only from 2027-01-01: it names it as not in force (decision 0063).
        let california = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(RegulatorReportTests.parameters("US-CA"), pool: client)
        }
        #expect(california.report["coverage"]?["title"] == "Coverage")
        #expect(california.report["coverage"]?["lawsNotInForce"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["us-ca-ab1043"])
    }

    @Test("TX and US-XX are refused with what is wrong and how to fix it, by the library, the CLI and the HTTP API")
    func unknownCodeRefused() async throws {
        let fixture = try await ServerFixture.make()
        let db = fixture.db
        try await Self.append(db)
        for (code, message, hint) in [
            ("TX", "TX is not an ISO 3166 code", "Texas is US-TX."),
            ("US-XX", "US-XX is not an ISO 3166 code: United States (US) has no subdivision XX", "Give US for the whole of United States"),
        ] {
            do {
                _ = try await Self.report(code, db)
                Issue.record("\(code) was accepted")
            } catch let error as LedgerError {
                #expect(error.code == .invalidField && error.field == "jurisdiction")
                #expect(error.message == message)
                #expect(error.hint?.hasPrefix(hint) == true, "\(error.hint ?? "")")
            }
        }
        let auditor = try CLITests.url(db, user: "consent_ledger_auditor")
        let cli = try await CLIRunner.run(["report", "regulator", "--log", Self.log, "--jurisdiction", "TX", "--from", "2026-10-01",
                                     "--to", "2026-11-01", "--database-url", auditor])
        #expect(cli.status != 0 && cli.stdout.isEmpty)
        #expect(cli.stderr.contains("TX is not an ISO 3166 code") && cli.stderr.contains("Texas is US-TX"), "\(cli.stderr)")

        try await fixture.test { client in
            let refused = try await client.execute(uri: "/v1/logs/acme/reports/regulator?jurisdiction=TX&from=2026-10-01&to=2026-11-01",
                                                   method: .get, headers: fixture.headers("auditor"))
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.json?["detail"] == "TX is not an ISO 3166 code" && refused.json?["field"] == "jurisdiction", "\(refused.text)")
            #expect(refused.json?["hint"]?.stringValue?.hasPrefix("Texas is US-TX.") == true, "\(refused.text)")
        }
    }
}
