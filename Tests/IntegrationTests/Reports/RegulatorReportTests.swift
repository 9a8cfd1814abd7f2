import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing
import LedgerReportHTML

/// The regulator report of RegulatorScenario, the figures worked out by hand from its table:
///
/// Scope: 31 events occurred in [10-01, 10-15) (#3-#33); 25 in US-TX (#3-#22, #27-#31); 3 name no
/// jurisdiction (#26, #32, #33).
/// Age signals (US-TX): requests launch 1 (#6), backfill 1 (#20), download 0 (#2 is before the
/// period, #23 is California); responses under13 1, 13to15 1, 16to17 1, adult 1; declarations
/// guardianDeclared 2, selfDeclared 1, confirmed 1; parental controls: approval required 3 (#3, #7,
/// #11), none 1 (#21); no declines, no failures (#24, #25 elsewhere).
/// Consent: q1-q4 sent (4), q5 failed; q1 approval, q2 approval (the answer after expiry still
/// counts, as in the consent register), q3 denial, q4 pending (answered only on 10-16), so 2 / 1 /
/// 0 expired / 1 failed / 1 pending. Times to answer 7,200, 86,400 and 93,000 s: median 86,400;
/// p95 by interpolation 86,400 + 0.9 x 6,600 = 92,340. Buckets: 1-6 h 1, 1-3 d 2. Oldest pending q4
/// (#15), 10-08 09:00 to 10-15 00:00 = 572,400 s. Weeks: 09-28 sent 2 approved 2; 10-05 sent 2,
/// denied 1, pending 1, failed 1; 10-12 nothing.
/// Rescissions: #17 enforced by #18 after 5,400 s; #19 never, its 24 h ended 10-11 12:00.
/// Significant change c-rooms (declared #1): asked k1 (by description), k2, k3 = 3; approved k1,
/// k2 = 2; denied k3 = 1; acknowledged a1 = 1.
/// Exceptions: ex-1 16+ approved in person, ex-2 18+ declined, ex-3 16+ undecided by the period's
/// end (#34 is after it): requested 3, in person 1, by message 0, declined 1.
/// Violations: #10 answer-after-question-expired (evidence #9, #10; k2 erased by #32), #12
/// access-without-approval (k3), #19 rescission-not-enforced (k2, erased).
/// Coverage: installs (k1,A) (k2,A) (k3,A) (a1,A) (k1,M) (k3,M) (k2,M) = 7; at download 1 (k1's #2),
/// at launch 1 (k2's #6): 0.1429 each; back-fill: 6 without a download request, 2 of them with a
/// request by the end (k2 launch, a1 backfill): 0.3333; 1 backfill request.
/// Retention: erasure of p_k2 (#32), RetentionApplied retention-2026-01 for 2 subjects (#33).
@Suite("Regulator report")
struct RegulatorReportTests {
    static func parameters(_ jurisdiction: String = "US-TX", asOf: Int64? = nil) -> RegulatorReport.Parameters {
        .init(log: RegulatorScenario.log, jurisdiction: jurisdiction, from: RegulatorScenario.from, to: RegulatorScenario.to, asOf: asOf)
    }

    static func counts(_ list: JSONValue?) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (list?.arrayValue ?? []).compactMap { item in
            item["key"]?.stringValue.flatMap { key in item["count"]?.intValue.map { (key, $0) } }
        })
    }

    @Test("the hand-built scenario's figures, section by section")
    func scenarioFigures() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let report = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters(), pool: client).report
        }
        #expect(report["ledger"]?["position"]?.intValue == 35)
        // The scope says what US-TX took in (itself alone) besides the counts; no code is unknown.
        #expect(report["scope"] == ["eventsInPeriod": 31, "eventsInJurisdiction": 25, "eventsWithoutJurisdiction": 3,
                                    "eventsByEnvironment": [["key": "production", "count": 0], ["key": "sandbox", "count": 0],
                                                            ["key": "development", "count": 0], ["key": "not stated", "count": 25]],
                                    "eventsWithUnknownJurisdiction": 0, "unknownCodes": [],
                                    "code": "US-TX", "name": "Texas", "kind": "subdivision", "members": ["US-TX"],
                                    "withSubdivisions": false, "membersAsOf": nil, "codesTakenIn": 1])

        let signals = try #require(report["ageSignals"])
        let triggers = Self.counts(signals["requestsByTrigger"])
        #expect(triggers["launch"] == 1 && triggers["backfill"] == 1 && triggers["download"] == 0)
        #expect(triggers.values.reduce(0, +) == 2 && triggers.count == RegulatorVocabulary.triggers.count)
        let categories = Dictionary(uniqueKeysWithValues: (signals["responsesByCategory"]?.arrayValue ?? []).map {
            ($0["key"]!.stringValue!, $0["count"]!.intValue!) })
        #expect(categories == ["under13": 1, "13to15": 1, "16to17": 1, "18toMajority": 0, "adult": 1, "unknown": 0])
        #expect(Self.counts(signals["responsesByDeclaration"]) == ["guardianDeclared": 2, "selfDeclared": 1, "confirmed": 1])
        #expect(Self.counts(signals["responsesByParentalControl"])
                == ["communicationLimits": 0, "significantAppChangeApprovalRequired": 3, "none": 1])
        #expect(signals["declines"] == 0)
        #expect(Self.counts(signals["failures"]) == ["invalidRequest": 0, "notAvailable": 0])

        let consent = try #require(report["consent"])
        #expect(consent["questionsSent"] == 4 && consent["approved"] == 2 && consent["denied"] == 1)
        #expect(consent["expired"] == 0 && consent["failed"] == 1 && consent["pendingAtPeriodEnd"] == 1)
        #expect(consent["timeToAnswer"] == ["answered": 3, "medianSeconds": 86_400, "p95Seconds": 92_340])
        #expect(consent["timeToAnswerDistribution"]?.arrayValue?.map { $0["count"]!.intValue! } == [0, 1, 0, 2, 0, 0])
        #expect(consent["oldestPending"]?["questionId"]?.stringValue == RegulatorScenario.q4)
        #expect(consent["oldestPending"]?["ageSeconds"] == 572_400 && consent["oldestPending"]?["evidencePositions"] == [15])
        #expect(consent["outcomesByWeek"] == [
            ["weekStart": "2026-09-28", "sent": 2, "approved": 2, "denied": 0, "expired": 0, "failed": 0, "pending": 0],
            ["weekStart": "2026-10-05", "sent": 2, "approved": 0, "denied": 1, "expired": 0, "failed": 1, "pending": 1],
            ["weekStart": "2026-10-12", "sent": 0, "approved": 0, "denied": 0, "expired": 0, "failed": 0, "pending": 0],
        ])
        #expect(consent["rescissions"] == ["count": 2, "enforcedWithinWindow": 1, "enforcedLate": 0, "notEnforced": 1,
                                           "medianSecondsToEnforcement": 5_400, "maxSecondsToEnforcement": 5_400,
                                           "told": 0, "medianSecondsToTell": nil, "maxSecondsToTell": nil,
                                           "withdrawals": [
                                               ["position": 17, "eventId": "e0000000-0000-4000-8000-000000000017", "subject": "p_k1",
                                                "rescindedAt": "2026-10-09T12:00:00Z", "told": nil,
                                                "closed": ["position": 18, "eventId": "e0000000-0000-4000-8000-000000000018",
                                                           "at": "2026-10-09T13:30:00Z", "secondsAfterRescission": 5_400]],
                                               ["position": 19, "eventId": "e0000000-0000-4000-8000-000000000019", "subject": "p_k2",
                                                "rescindedAt": "2026-10-10T12:00:00Z", "told": nil, "closed": nil],
                                           ]])

        #expect(report["significantChanges"] == [[
            "changeId": "c-rooms", "app": .string(RegulatorScenario.appA), "introducedInVersion": "3.0.0",
            "declaredAt": "2026-09-20T10:00:00Z", "notifiedToStoreAt": nil, "minorsAsked": 3, "approved": 2, "denied": 1, "adultsAcknowledged": 1,
            "evidencePositions": [1], "evidenceEventIds": [.string(RegulatorScenario.id(1))],
        ]])

        let exceptions = try #require(report["exceptions"])
        #expect(exceptions["requested"] == 3 && exceptions["approvedInPerson"] == 1 && exceptions["approvedByMessage"] == 0)
        #expect(exceptions["declined"] == 1)
        let ratings = (exceptions["byRatedAge"]?.arrayValue ?? []).filter { $0["requested"] != 0 }
        #expect(ratings == [["ratedAge": "16+", "requested": 2, "approved": 1, "declined": 0],
                            ["ratedAge": "18+", "requested": 1, "approved": 0, "declined": 1]])

        let violations = try #require(report["violations"]?.arrayValue)
        #expect(violations.map { $0["rule"]!.stringValue! } == ["answer-after-question-expired", "access-without-approval", "rescission-not-enforced"])
        #expect(violations.map { $0["position"]!.intValue! } == [10, 12, 19])
        #expect(violations.map { $0["subject"]!.stringValue! } == ["p_k2", "p_k3", "p_k2"])
        #expect(violations.map { $0["subjectErased"]!.boolValue! } == [true, false, true])
        #expect(violations[0]["evidencePositions"] == [9, 10])
        #expect(violations[0]["evidenceEventIds"] == [.string(RegulatorScenario.id(9)), .string(RegulatorScenario.id(10))])
        #expect(violations[1]["evidencePositions"]?.arrayValue?.last == 12)
        #expect(violations[2]["evidencePositions"] == [19] && violations[2]["occurredAt"] == "2026-10-10T12:00:00Z")

        // Titled by Texas's law (decision 0024); the figures are the scenario's.
        var coverage = report["coverage"]?.objectValue ?? [:]
        #expect(coverage.removeValue(forKey: "title") == "Coverage (Texas SB 2420)")
        #expect(coverage.removeValue(forKey: "laws") == [Law.texasSB2420.json])
        #expect(coverage.removeValue(forKey: "lawsForParts") == [])
        #expect(coverage.removeValue(forKey: "lawsNotInForce") == [])
        #expect(JSONValue.object(coverage) == [
            "installs": 7, "requestedAtDownload": 1, "requestedAtLaunch": 1, "shareAtDownload": 0.1429, "shareAtLaunch": 0.1429,
            "backfill": ["existingInstalls": 6, "withAgeSignal": 2, "share": 0.3333, "backfillRequests": 1],
        ])

        let retention = try #require(report["retention"])
        #expect(retention["erasures"] == [["subject": "p_k2", "reason": "erasureRequest", "occurredAt": "2026-10-14T22:00:00Z",
                                           "evidencePositions": [32], "evidenceEventIds": [.string(RegulatorScenario.id(32))]]])
        #expect(retention["retentionApplied"]?.arrayValue?.map { $0["subjects"] } == [2])
        #expect(retention["policy"]?["policyId"] == "not stated")

        #expect(report["integrity"]?["passed"] == true && report["integrity"]?["verifiedThrough"] == 35)
        #expect(report["policy"]?["rescissionEnforcementWindowHours"] == 24)
        #expect(ReportSeal.verify(report))
    }

    @Test("a wider jurisdiction takes in its subdivisions: US counts California's download and decline")
    func widerJurisdiction() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let report = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters("US"), pool: client).report
        }
        #expect(report["scope"]?["eventsInJurisdiction"] == 27)
        #expect(Self.counts(report["ageSignals"]?["requestsByTrigger"])["download"] == 1)
        #expect(report["ageSignals"]?["declines"] == 1)
        #expect(report["coverage"]?["installs"] == 8 && report["coverage"]?["requestedAtDownload"] == 2)
        let gb = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters("GB"), pool: client).report
        }
        #expect(Self.counts(gb["ageSignals"]?["failures"]) == ["invalidRequest": 0, "notAvailable": 1])
        #expect(gb["consent"]?["questionsSent"] == 0 && gb["consent"]?["oldestPending"] == .null)
        #expect(gb["consent"]?["timeToAnswer"] == ["answered": 0, "medianSeconds": nil, "p95Seconds": nil])
    }

    @Test("as of an earlier position the later events are ignored, whether the projections have folded further or not")
    func earlierPosition() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let before = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters(asOf: 14), pool: client)
        }
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let after = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters(asOf: 14), pool: client)
        }
        // Folded to the head, the live projections give the same bytes as folding to 14 privately.
        #expect(after.json == before.json)
        let report = before.report
        #expect(report["parameters"]?["asOf"] == 14 && report["integrity"]?["verifiedThrough"] == 14)
        #expect(report["consent"]?["questionsSent"] == 3 && report["consent"]?["pendingAtPeriodEnd"] == 0)
        #expect(report["consent"]?["rescissions"]?["count"] == 0)
        #expect(report["violations"]?.arrayValue?.map { $0["position"]!.intValue! } == [10, 12])
        // p_k2 is erased only at #32: as of 14 the report does not say so.
        #expect(report["violations"]?.arrayValue?.map { $0["subjectErased"]!.boolValue! } == [false, false])
        #expect(report["exceptions"]?["requested"] == 0 && report["retention"]?["erasures"] == [])
    }

    @Test("the same inputs give the same bytes; a policy file changes the window and is printed")
    func determinismAndPolicy() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let policy = try ReportPolicy.parse(Array(#"{"rescissionEnforcementWindowHours": 1, "retention": {"policyId": "r-1", "statement": "Kept 3 years."}}"#.utf8))
        let (first, second, strict) = try await db.as(.auditor) { client async throws in
            (try await RegulatorReport.compute(Self.parameters(), pool: client),
             try await RegulatorReport.compute(Self.parameters(), pool: client),
             try await RegulatorReport.compute(Self.parameters(), policy: policy, pool: client))
        }
        #expect(first.json == second.json && first.sha256 == second.sha256)
        // With a 1-hour window, #17's enforcement after 1.5 h is late: a fourth violation citing #17 and #18.
        let rescissions = strict.report["consent"]?["rescissions"]
        #expect(rescissions?["enforcedWithinWindow"] == 0 && rescissions?["enforcedLate"] == 1)
        let late = strict.report["violations"]?.arrayValue?.first { $0["position"] == 17 }
        #expect(late?["rule"] == "rescission-not-enforced" && late?["evidencePositions"] == [17, 18])
        #expect(strict.report["policy"]?["rescissionEnforcementWindowHours"] == 1)
        #expect(strict.report["policy"]?["source"]?.stringValue?.hasPrefix("file sha256:") == true)
        #expect(strict.report["retention"]?["policy"] == ["policyId": "r-1", "statement": "Kept 3 years."])
    }

    @Test("the policy governs the rules: one turned off, one limited to another state; both named in the policy section")
    func policyGovernsRules() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let policy = try ReportPolicy.parse(Array(#"""
            {"policyId": "acme-consent", "policyVersion": "7",
             "rules": {"access-without-approval": {"enabled": false}, "answer-after-question-expired": {"jurisdictions": ["US-CA"]},
                       "rescission-not-enforced": {"jurisdictions": ["US"]}}}
            """#.utf8))
        let (plain, governed) = try await db.as(.auditor) { client async throws in
            (try await RegulatorReport.compute(Self.parameters(), pool: client).report,
             try await RegulatorReport.compute(Self.parameters(), policy: policy, pool: client).report)
        }
        #expect(plain["violations"]?.arrayValue?.map { $0["rule"]?.stringValue } ?? []
                == ["answer-after-question-expired", "access-without-approval", "rescission-not-enforced"])
        // Off, and limited to California for a Texas event: only the rescission (US contains US-TX) is left.
        #expect(governed["violations"]?.arrayValue?.map { $0["rule"]?.stringValue } ?? [] == ["rescission-not-enforced"])
        #expect(governed["policy"]?["policyId"] == "acme-consent" && governed["policy"]?["policyVersion"] == "7")
        let rules = governed["policy"]?["rules"]?.arrayValue ?? []
        #expect(rules.map { $0["rule"]?.stringValue } == RuleCatalogue.violations.map(\.id))
        #expect(rules.first { $0["rule"] == "access-without-approval" }?["enabled"] == false)
        #expect(rules.first { $0["rule"] == "answer-after-question-expired" }?["jurisdictions"] == ["US-CA"])
        #expect(plain["policy"]?["policyId"] == .null)
    }

    @Test("a policy naming a rule that does not exist, or a jurisdiction that is no code, is refused with what to fix")
    func policyRulesRefused() {
        #expect { try ReportPolicy.parse(Array(#"{"rules": {"access-withot-approval": {"enabled": false}}}"#.utf8)) } throws: { error in
            let e = error as? LedgerError
            return e?.message.contains("\"access-withot-approval\", which is no rule") == true && e?.hint?.contains("access-without-approval") == true
        }
        #expect { try ReportPolicy.parse(Array(#"{"rules": {"access-without-approval": {"jurisdictions": ["TX"]}}}"#.utf8)) } throws: { error in
            let e = error as? LedgerError
            return e?.message.hasPrefix("rules.access-without-approval.jurisdictions: TX") == true
        }
        #expect { try ReportPolicy.parse(Array(#"{"rules": {"access-without-approval": {"enabled": "no"}}}"#.utf8)) } throws: { error in
            (error as? LedgerError)?.message.contains("enabled (true or false)") == true
        }
    }

    @Test("CSV has one row per figure with its evidence")
    func csvRows() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let report = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(Self.parameters(), pool: client).report
        }
        let lines = RegulatorCSV.csv(report).components(separatedBy: "\r\n")
        #expect(lines.first == RegulatorCSV.columns.joined(separator: ","))
        #expect(lines.contains("consent,approved,,2,,"))
        #expect(lines.contains("consent,timeToAnswer.p95Seconds,,92340,,"))
        #expect(lines.contains("ageSignals,requestsByTrigger.count,launch,1,,"))
        #expect(lines.contains("consent,outcomesByWeek.denied,2026-10-05,1,,"))
        #expect(lines.contains("violations,subject,answer-after-question-expired at 10,p_k2,9 10,\(RegulatorScenario.id(9)) \(RegulatorScenario.id(10))"))
        #expect(lines.contains("coverage,backfill.share,,0.3333,,"))
        #expect(lines.contains("report,sha256,,\(report["sha256"]!.stringValue!),,"))
    }

    @Test("bad parameters are refused with a way to fix them")
    func badParameters() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        try await db.as(.auditor) { client async in
            do {
                _ = try await RegulatorReport.compute(.init(log: "tx", jurisdiction: "Texas", from: RegulatorScenario.from, to: RegulatorScenario.to), pool: client)
                Issue.record("a bad jurisdiction was accepted")
            } catch let error as LedgerError {
                #expect(error.code == .invalidField && error.hint?.contains("US-TX") == true)
            } catch { Issue.record("unexpected \(error)") }
            do {
                _ = try await RegulatorReport.compute(.init(log: "tx", jurisdiction: "US", from: RegulatorScenario.to, to: RegulatorScenario.from), pool: client)
                Issue.record("an empty period was accepted")
            } catch let error as LedgerError {
                #expect(error.code == .invalidRequest && error.message.contains("not before"))
            } catch { Issue.record("unexpected \(error)") }
        }
        #expect(throws: LedgerError.self) { try ReportPolicy.parse(Array(#"{"rescissionWindow": 2}"#.utf8)) }
        #expect(throws: LedgerError.self) { try ReportPolicy.parse(Array(#"{"rescissionEnforcementWindowHours": 0}"#.utf8)) }
    }
}

@Suite("Regulator report: schema")
struct RegulatorReportSchemaTests {
    @Test("the scenario's report and a simulated history's, for several jurisdictions, validate against docs/reports/regulator.schema.json")
    func validates() async throws {
        let schema = try JSONSchemaValidator(schemaFile: "regulator")
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        _ = try await ProjectionTestSupport.appendSimulated(db, families: 12, days: 40, seed: 5)
        try await db.as(.auditor) { client async throws in
            let scenario = try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client)
            #expect(try schema.violations(of: scenario.json) == [])
            for jurisdiction in ["US", "US-TX", "GB", "EU"] {
                let report = try await RegulatorReport.compute(
                    .init(log: "sim", jurisdiction: jurisdiction, from: AsOf.date("2026-01-01T00:00:00Z")!,
                          to: AsOf.date("2028-01-01T00:00:00Z")!), pool: client)
                #expect(try schema.violations(of: report.json) == [], "\(jurisdiction)")
                if jurisdiction == "US" { #expect((report.report["consent"]?["questionsSent"]?.intValue ?? 0) > 0) }
            }
        }
    }
}

@Suite("Regulator report: HTML")
struct RegulatorReportHTMLTests {
    @Test("the scenario's page shows its figures, its three charts, the erased subject and the policy in force")
    func scenarioPage() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let result = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client)
        }
        let page = try ReportHTML.render(try JSONParser.parse(result.json))
        #expect(page == (try ReportHTML.render(try JSONParser.parse(result.json))))
        #expect(page.contains(result.sha256) && page.contains(result.provenance.headHash))
        for chart in ["chart-age-categories", "chart-time-to-answer", "chart-outcomes-by-week"] {
            #expect(page.contains("id=\"\(chart)\""), "\(chart)")
        }
        #expect(page.components(separatedBy: "<svg").count - 1 == 3)
        #expect(page.contains("(92,340 s)") && page.contains("(86,400 s)") && page.contains("(572,400 s)"))
        #expect(page.contains("answer-after-question-expired") && page.contains("rescission-not-enforced")
                && page.contains("access-without-approval"))
        let text = page.replacingOccurrences(of: "<wbr>", with: "")  // ids may break at their hyphens
        #expect(text.contains(RegulatorScenario.id(9)) && text.contains(RegulatorScenario.id(19)))
        #expect(text.contains("retention-2026-01") && text.contains("24 hours"))
        #expect(page.components(separatedBy: "p_k2").count - 1 >= 3 && page.contains("erased"))
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"))
    }
}

/// A report that would look clean but should not (issue 39): each notice, and none on a report
/// that needs none.
@Suite("Regulator report: notices")
struct RegulatorNoticeTests {
    static func codes(_ report: JSONValue) -> [String] {
        report["notices"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test("a period before the log, a jurisdiction with no events, a period not over and an early date of issue each say so")
    func notices() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let issuedEarly = try ReportPolicy.parse(Array(#"{"dateOfIssue": "2026-09-01"}"#.utf8))
        try await db.as(.auditor) { client async throws in
            func report(_ jurisdiction: String, _ from: String, _ to: String, policy: ReportPolicy = .defaults) async throws -> JSONValue {
                try await RegulatorReport.compute(.init(log: RegulatorScenario.log, jurisdiction: jurisdiction, from: AsOf.date(from)!,
                                                        to: AsOf.date(to)!), policy: policy, pool: client).report
            }
            // The scenario's own period, as the first suite reads it: nothing to say.
            #expect(Self.codes(try await report("US-TX", "2026-10-01T00:00:00Z", "2026-10-15T00:00:00Z")) == [])
            // The third quarter: the log's first event occurred on 2026-09-20, so two events are in it;
            // the second quarter holds none, and says when the log's events occurred.
            let before = try await report("US-TX", "2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z")
            #expect(Self.codes(before) == ["no-events-in-period"])
            #expect(before["notices"]?.arrayValue?.first?["message"]?.stringValue?.contains("its events occurred from 2026-09-20T10:00:00Z to 2026-10-16T10:00:00Z") == true)
            #expect(Self.codes(try await report("FR", "2026-10-01T00:00:00Z", "2026-10-15T00:00:00Z")) == ["no-events-in-jurisdiction"])
            // A period that ends after the newest event was recorded (now): it was not over.
            #expect(Self.codes(try await report("US-TX", "2026-10-01T00:00:00Z", "2029-01-01T00:00:00Z")) == ["period-not-over"])
            // Dated 2026-09-01: before the period's end, and before the events were recorded (today).
            #expect(Self.codes(try await report("US-TX", "2026-10-01T00:00:00Z", "2026-10-15T00:00:00Z", policy: issuedEarly))
                    == ["issued-before-period-end", "issued-before-newest-event"])
        }
    }
}
