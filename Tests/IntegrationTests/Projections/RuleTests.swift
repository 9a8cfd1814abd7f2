import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// The rules catalogue as specifications: for each rule, a hand-written history where it must fire
/// (with the evidence it must cite) and one where it must not, checked through the anomalies
/// projection. The two histories the issue reported (a denial followed by an opening; an
/// unverified adult let in) are also checked through the regulator report and `explain`.
@Suite("The rules catalogue, rule by rule")
struct RuleTests {
    /// Every finding of `log` after a projection run: "position kind [evidence]".
    static func findings(_ db: TestDatabase, log: String, source: String = "rule") async throws -> [String] {
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            var found: [String] = []
            let rows = try await client.query("""
                SELECT position, kind, evidence, needs_review IS NOT NULL FROM anomalies.findings
                 WHERE log_id = \(log) AND source = \(source) ORDER BY position, kind
                """)
            for try await (position, kind, evidence, review) in rows.decode((Int64, String, [Int64], Bool).self) {
                found.append("\(position) \(kind) \(evidence)" + (review ? " (needs review)" : ""))
            }
            return found
        }
    }

    /// Appends each history and returns its findings, by log.
    static func run(_ histories: RuleHistory..., source: String = "rule") async throws -> (TestDatabase, [String: [String]]) {
        let db = try await TestDatabase.create()
        for history in histories { try await history.append(db) }
        var all: [String: [String]] = [:]
        for history in histories { all[history.log] = try await findings(db, log: history.log, source: source) }
        return (db, all)
    }

    /// The issue's first history: a 13-15 year old whose device reports only communicationLimits,
    /// in a jurisdiction where DeclaredAgeRange required parental consent for significant changes;
    /// a question about the change, the parent's `answer`, then the app opens the feature.
    static func denialHistory(log: String, answer: String) -> RuleHistory {
        var h = RuleHistory(log: log)
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                     // 1
        h.eligibility(["significantAppChangeRequiresParentalConsent"], at: "2026-10-02T09:00:00Z")     // 2
        h.ageRange(13, 15, at: "2026-10-02T09:00:05Z")                                                   // 3
        h.askAndAnswer(answer, question: "b1000000-0000-4000-8000-000000000001",
                       at: "2026-10-02T09:05:00Z", answeredAt: "2026-10-02T10:05:00Z")                   // 4, 5
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3), h.id(5)])                                   // 6
        return h
    }

    /// The issue's second history: an adult whose age is only self-declared, in a jurisdiction where
    /// DeclaredAgeRange required adult notification, let into the feature with no acknowledgment.
    static func adultHistory(log: String, declaration: String, acknowledged: Bool, handledBy: String = "showSignificantUpdateAcknowledgment")
        -> RuleHistory {
        var h = RuleHistory(log: log)
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                     // 1
        h.eligibility(["significantAppChangeRequiresAdultNotification"], at: "2026-10-02T09:00:00Z")   // 2
        h.ageRange(18, nil, at: "2026-10-02T09:00:05Z", controls: [], declaration: declaration)          // 3
        if acknowledged {
            h.add("SignificantChangeAcknowledged", at: "2026-10-02T09:30:00Z",
                  ["changeId": .string(RuleHistory.change), "handledBy": .string(handledBy), "originalAppVersion": .null,
                   "handledOnOtherDevice": .bool(handledBy == "notRequired")])
        }
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3)])
        return h
    }

    @Test("access-after-denial: a denial on record, then the feature opened; an approval instead is no finding")
    func accessAfterDenial() async throws {
        let (_, found) = try await Self.run(Self.denialHistory(log: "denied", answer: "denial"),
                                            Self.denialHistory(log: "approved", answer: "approval"))
        #expect(found["denied"] == ["6 access-after-denial [1, 5, 6]"])
        #expect(found["approved"] == [])
    }

    @Test("access-without-approval: required by DeclaredAgeRange (not by the device's controls), no question at all")
    func accessWithoutApprovalFromTheRequirement() async throws {
        let fires = RuleHistory.openingAfterChange(log: "fires", requirement: "significantAppChangeRequiresParentalConsent")
        // The same opening when nothing required approval: no consent feature, no approval control.
        let quiet = RuleHistory.openingAfterChange(log: "quiet", requirement: "declaredAgeRangeRequired")
        // First seen at 3.0.0, the change's version, with no original version on record: the ledger
        // cannot tell whether the child got the app before the change, so it judges the change in
        // force and marks the finding as needing review (decision 0064).
        let firstSeenAfter = RuleHistory.openingAfterChange(log: "first-seen-after", requirement: "significantAppChangeRequiresParentalConsent",
                                                            version: "3.0.0")
        // Installed at 3.0.0, after the change (AppTransaction.originalAppVersion): the app already
        // had it when the child got it.
        let installedAfter = RuleHistory.openingAfterChange(log: "installed-after", requirement: "significantAppChangeRequiresParentalConsent",
                                                            version: "3.0.0", original: "3.0.0")
        // Required by the device's parental controls, not by DeclaredAgeRange: the requirement is no evidence.
        let byControls = RuleHistory.openingAfterChange(log: "by-controls", requirement: "declaredAgeRangeRequired",
                                                        controls: ["significantAppChangeApprovalRequired"])
        let (_, found) = try await Self.run(fires, quiet, firstSeenAfter, installedAfter, byControls)
        #expect(found["fires"] == ["4 access-without-approval [1, 2, 3, 4]"])
        #expect(found["by-controls"] == ["4 access-without-approval [1, 3, 4]"])
        #expect(found["quiet"] == [])
        #expect(found["first-seen-after"] == ["4 access-without-approval [1, 2, 3, 4] (needs review)"])
        #expect(found["installed-after"] == [])
    }

    @Test("access-after-rescission: an opening after a withdrawal of consent for the app is one violation, not also access-without-approval")
    func rescindedApproval() async throws {
        var h = Self.denialHistory(log: "rescinded", answer: "approval")
        // Positions 1-6 as in the denial history (6: an opening after the approval); then a rescission and a new opening.
        h.add("ConsentRescinded", at: "2026-10-03T09:00:00Z", ["bundleId": .string(RuleHistory.app)])    // 7
        h.open(at: "2026-10-03T12:00:00Z", basis: [h.id(3)])                                             // 8
        let (_, found) = try await Self.run(h)
        #expect(found["rescinded"] == ["8 access-after-rescission [7, 8]"])
    }

    @Test("unverified-adult-access and adult-access-without-acknowledgment (a notRequired marking is no acknowledgment); a verified adult who acknowledged is no finding")
    func adults() async throws {
        let (_, found) = try await Self.run(
            Self.adultHistory(log: "unverified", declaration: "selfDeclared", acknowledged: false),
            Self.adultHistory(log: "verified", declaration: "confirmed", acknowledged: false),
            Self.adultHistory(log: "acknowledged", declaration: "confirmed", acknowledged: true),
            Self.adultHistory(log: "not-required", declaration: "confirmed", acknowledged: true, handledBy: "notRequired"))
        #expect(found["unverified"] == ["4 unverified-adult-access [1, 2, 3, 4]"])
        #expect(found["verified"] == ["4 adult-access-without-acknowledgment [1, 2, 3, 4]"])
        #expect(found["acknowledged"] == [])
        // A notRequired marking (here synced from another device) says no acknowledgment was needed: it is none.
        #expect(found["not-required"] == ["5 adult-access-without-acknowledgment [1, 2, 3, 5]"])
    }

    @Test("acknowledgment-version-false: originalAppVersion 2.0.0 for a change of 3.0.0; 3.1.0 holds")
    func acknowledgmentVersion() async throws {
        func history(_ log: String, original: String) -> RuleHistory {
            var h = RuleHistory(log: log)
            h.declareChange(at: "2026-10-01T08:00:00Z")
            h.add("SignificantChangeAcknowledged", at: "2026-10-02T09:30:00Z",
                  ["changeId": .string(RuleHistory.change), "handledBy": "originalAppVersion", "originalAppVersion": .string(original)])
            return h
        }
        let (_, found) = try await Self.run(history("false", original: "2.0.0"), history("holds", original: "3.1.0"))
        #expect(found["false"] == ["2 acknowledgment-version-false [1, 2]"])
        #expect(found["holds"] == [])
    }

    @Test("acknowledgment-before-change and answer-before-question: recorded before what they answer existed")
    func beforeTheirCause() async throws {
        var early = RuleHistory(log: "early")
        early.add("SignificantChangeAcknowledged", at: "2026-10-02T09:30:00Z",
                  ["changeId": .string(RuleHistory.change), "handledBy": "showSignificantUpdateAcknowledgment", "originalAppVersion": .null])
        early.add("ParentalAnswerReceived", at: "2026-10-02T10:00:00Z", ["questionId": "b1000000-0000-4000-8000-000000000009"])
        // A question and a change that exist, but occurred after what answers them (device clocks).
        early.declareChange(at: "2026-10-05T08:00:00Z")                                                  // 3
        early.add("SignificantChangeAcknowledged", at: "2026-10-04T09:30:00Z",
                  ["changeId": .string(RuleHistory.change), "handledBy": "showSignificantUpdateAcknowledgment", "originalAppVersion": .null])
        var inOrder = RuleHistory(log: "in-order")
        inOrder.declareChange(at: "2026-10-01T08:00:00Z")
        inOrder.add("SignificantChangeAcknowledged", at: "2026-10-02T09:30:00Z",
                    ["changeId": .string(RuleHistory.change), "handledBy": "showSignificantUpdateAcknowledgment", "originalAppVersion": .null])
        inOrder.askAndAnswer("approval", question: "b1000000-0000-4000-8000-000000000002",
                             at: "2026-10-02T09:05:00Z", answeredAt: "2026-10-02T10:05:00Z")
        let (_, found) = try await Self.run(early, inOrder)
        #expect(found["early"] == ["1 acknowledgment-before-change [1]", "2 answer-before-question [2]",
                                   "4 acknowledgment-before-change [3, 4]"])
        #expect(found["in-order"] == [])
    }

    @Test("exception-install-without-approval and in-person-approval-unauthenticated")
    func exceptions() async throws {
        func history(_ log: String, decided: String?, authenticated: Bool) -> RuleHistory {
            var h = RuleHistory(log: log)
            h.add("AgeExceptionRequested", at: "2026-10-02T09:00:00Z", ["exceptionId": "ex-1", "appleItemID": 6471234567])
            if let decided {
                h.add("AgeExceptionDecided", at: "2026-10-02T09:10:00Z",
                      ["exceptionId": "ex-1", "decision": .string(decided), "guardianAuthenticated": .bool(authenticated)])
            }
            h.add("InstallAttempted", at: "2026-10-02T09:20:00Z",
                  ["appleItemID": 6471234567, "requestAgeException": true, "outcome": "installed", "exceptionId": .null])
            return h
        }
        let (_, found) = try await Self.run(history("undecided", decided: nil, authenticated: true),
                                            history("declined", decided: "declined", authenticated: true),
                                            history("unauthenticated", decided: "approved", authenticated: false),
                                            history("approved", decided: "approved", authenticated: true))
        #expect(found["undecided"] == ["2 exception-install-without-approval [1, 2]"])
        #expect(found["declined"] == ["3 exception-install-without-approval [1, 3]"])
        #expect(found["unauthenticated"] == ["2 in-person-approval-unauthenticated [1, 2]"])
        #expect(found["approved"] == [])
    }

    @Test("access-opened-without-basis is a violation; change-redeclared and occurred-in-future are anomalies")
    func basisAndAnomalies() async throws {
        var h = RuleHistory(log: "odd")
        h.declareChange(at: "2026-10-01T08:00:00Z")
        h.declareChange(at: "2026-10-01T09:00:00Z", description: "Rooms, now with voice chat.")
        h.declareChange(at: "2026-10-01T09:30:00Z")   // the same as the first: no finding
        h.open("drawing", at: "2066-10-02T11:00:00Z", basis: [])   // decades ahead of the ledger's clock
        let (db, found) = try await Self.run(h)
        #expect(found["odd"] == ["4 access-opened-without-basis [4]"])
        #expect(try await Self.findings(db, log: "odd", source: "catalogue")
                == ["2 change-redeclared [1, 2]", "4 occurred-in-future [4]"])
    }

    @Test("the denial and the unverified adult through the regulator report, the dossier and explain")
    func throughReportAndExplain() async throws {
        let db = try await TestDatabase.create()
        try await Self.denialHistory(log: "denied", answer: "denial").append(db)
        let adult = Self.adultHistory(log: "adult", declaration: "selfDeclared", acknowledged: false)
        try await adult.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        try await db.as(.auditor) { client async throws in
            for (log, rule, evidence) in [("denied", "access-after-denial", [1, 5, 6]), ("adult", "unverified-adult-access", [1, 2, 3, 4])] {
                let report = try await RegulatorReport.compute(
                    .init(log: log, jurisdiction: "US-TX", from: AsOf.date("2026-10-01T00:00:00Z")!, to: AsOf.date("2026-11-01T00:00:00Z")!),
                    pool: client).report
                let violations = try #require(report["violations"]?.arrayValue)
                #expect(violations.map { $0["rule"]?.stringValue } == [rule])
                #expect(violations.first?["evidencePositions"] == .array(evidence.map { .number(Double($0)) }))
                #expect(violations.first?["description"]?.stringValue == RuleCatalogue.rule(rule)?.statement)
                let dossier = try JSONParser.parse(try await SubjectDossierReport.compute(log: log, subject: "p_k", pool: client).json)
                let listed = dossier["findings"]?.arrayValue ?? []
                #expect(listed.map { $0["rule"]?.stringValue } == [rule] && listed.first?["kind"] == "violation")
                #expect(listed.first?["evidencePositions"] == .array(evidence.map { .number(Double($0)) }))
                let explained = try await FeatureExplanation.explain(log: log, subject: "p_k", feature: "rooms", asOf: .head, pool: client)
                let checks = try #require(explained.decisions.first?.rules)
                // Every rule on an opening was applied; only this one failed, with the report's evidence.
                #expect(checks.map(\.rule) == RuleCatalogue.onOpenedFeatures.map(\.id))
                #expect(checks.filter(\.failed).map(\.rule) == [rule])
                #expect(checks.first { $0.failed }?.evidence == evidence.map(Int64.init))
                if rule == "access-after-denial" {
                    #expect(explained.decisions.first?.parentalAnswers == ["denial of change c-rooms (#5)"])
                }
                // A policy that applies the rule only in Utah: not applied to this Texas opening.
                let utahOnly = try ReportPolicy.parse(Array(#"{"policyId": "p", "rules": {"\#(rule)": {"jurisdictions": ["US-UT"]}}}"#.utf8))
                let governed = try await FeatureExplanation.explain(log: log, subject: "p_k", feature: "rooms", asOf: .head,
                                                                    policy: utahOnly, pool: client)
                let check = governed.decisions.first?.rules.first { $0.rule == rule }
                #expect(check?.outcome == .notApplied && check?.detail == "the policy p does not apply it to events of US-TX")
                #expect(governed.decisions.first?.rules.contains { $0.failed } == false)
            }
        }
    }

    @Test("explain judges a closing against the policy's window: 26 hours after a rescission is late at 24, in time at 48")
    func lateClosingExplained() async throws {
        let h = RuleHistory.lateClosing(log: "late")   // 3 the rescission, 4 the closing 26 hours later
        let db = try await TestDatabase.create()
        try await h.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        try await db.as(.auditor) { client async throws in
            let strict = try await FeatureExplanation.explain(log: "late", subject: "p_k", feature: "rooms", asOf: .head, pool: client)
            let check = try #require(strict.decisions.first?.rules.first)
            #expect(strict.decisions.first?.state == "closed")
            #expect(check.rule == "rescission-not-enforced" && check.failed && check.evidence == [3, 4])
            #expect(check.detail.contains("26 h 0 min") && check.detail.contains("24-hour window"))
            var lenient = ReportPolicy.defaults
            lenient.rescissionEnforcementWindowHours = 48
            let relaxed = try await FeatureExplanation.explain(log: "late", subject: "p_k", feature: "rooms", asOf: .head,
                                                               policy: lenient, pool: client)
            #expect(relaxed.decisions.first?.rules.map(\.failed) == [false])
            // Judged by the rescission's jurisdiction (US-TX): a policy for Utah only does not apply it.
            let utahOnly = try ReportPolicy.parse(Array(#"{"rules": {"rescission-not-enforced": {"jurisdictions": ["US-UT"]}}}"#.utf8))
            let elsewhere = try await FeatureExplanation.explain(log: "late", subject: "p_k", feature: "rooms", asOf: .head,
                                                                 policy: utahOnly, pool: client)
            #expect(elsewhere.decisions.first?.rules.map(\.outcome) == [.notApplied])
            #expect(elsewhere.decisions.first?.rules.first?.detail == "the policy does not apply it to events of US-TX")
        }
    }

    @Test("age-signal-expired: judged only under a policy's re-check interval, by the regulator report and explain alike")
    func ageSignalExpired() async throws {
        var h = RuleHistory(log: "stale")
        h.ageRange(13, 15, at: "2026-08-01T09:00:00Z")                                       // 1
        h.open("drawing", at: "2026-10-05T09:00:00Z", basis: [h.id(1)])                      // 2: 65 days after the signal
        h.ageRange(13, 15, at: "2026-10-06T09:00:00Z")                                       // 3
        h.open("rooms", at: "2026-10-10T09:00:00Z", basis: [h.id(3)])                        // 4: 4 days after
        let db = try await TestDatabase.create()
        try await h.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let monthly = try ReportPolicy.parse(Array(#"{"ageSignalRecheckDays": 30}"#.utf8))
        let quarterly = try ReportPolicy.parse(Array(#"{"ageSignalRecheckDays": 90}"#.utf8))
        try await db.as(.auditor) { client async throws in
            let parameters = RegulatorReport.Parameters(log: "stale", jurisdiction: "US-TX", from: AsOf.date("2026-10-01T00:00:00Z")!,
                                                        to: AsOf.date("2026-11-01T00:00:00Z")!)
            func violations(_ policy: ReportPolicy) async throws -> [JSONValue] {
                try await RegulatorReport.compute(parameters, policy: policy, pool: client).report["violations"]?.arrayValue ?? []
            }
            let found = try await violations(monthly)
            #expect(found.map { $0["rule"]?.stringValue } == ["age-signal-expired"])
            #expect(found.first?["evidencePositions"] == [1, 2])
            #expect(found.first?["detail"]?.stringValue?.contains("65 d") == true)
            #expect(try await violations(quarterly).isEmpty)
            #expect(try await violations(.defaults).isEmpty, "no interval, no judgment")

            func check(_ feature: String, _ policy: ReportPolicy) async throws -> FeatureExplanation.RuleCheck? {
                try await FeatureExplanation.explain(log: "stale", subject: "p_k", feature: feature, asOf: .head, policy: policy, pool: client)
                    .decisions.first?.rules.first { $0.rule == "age-signal-expired" }
            }
            let stale = try await check("drawing", monthly)
            #expect(stale?.outcome == .failed && stale?.evidence == [1, 2])
            #expect(stale?.detail == "opened on an age signal 65 d old (position 1), beyond the policy's re-check interval of 30 days")
            let fresh = try await check("rooms", monthly)
            #expect(fresh?.outcome == .passed && fresh?.evidence == [3, 4])
            #expect(try await check("drawing", quarterly)?.outcome == .passed)
            let unset = try await check("drawing", .defaults)
            #expect(unset?.outcome == .notApplied && unset?.detail == "the policy sets no re-check interval (ageSignalRecheckDays)")
        }
    }

    @Test("adultsAcknowledged counts adults whose acknowledgment holds: not one with no age signal, a false originalAppVersion or a notRequired marking")
    func adultsAcknowledged() async throws {
        var h = RuleHistory(log: "acks")
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                      // 1
        func acknowledge(_ subject: String, _ handledBy: String, original: String? = nil, at time: String) {
            h.add("SignificantChangeAcknowledged", at: time, subject: subject,
                  ["changeId": .string(RuleHistory.change), "handledBy": .string(handledBy),
                   "originalAppVersion": original.map(JSONValue.string) ?? .null])
        }
        h.ageRange(18, nil, at: "2026-10-02T09:00:00Z", controls: [], declaration: "confirmed", subject: "p_a")     // 2
        acknowledge("p_a", "showSignificantUpdateAcknowledgment", at: "2026-10-02T09:10:00Z")                      // 3: counted
        acknowledge("p_n", "showSignificantUpdateAcknowledgment", at: "2026-10-02T09:20:00Z")                      // 4: no age signal
        h.ageRange(18, nil, at: "2026-10-02T09:30:00Z", controls: [], declaration: "confirmed", subject: "p_v")     // 5
        acknowledge("p_v", "originalAppVersion", original: "2.0.0", at: "2026-10-02T09:40:00Z")                    // 6: false marking
        h.ageRange(18, nil, at: "2026-10-02T09:50:00Z", controls: [], declaration: "confirmed", subject: "p_r")     // 7
        acknowledge("p_r", "notRequired", at: "2026-10-02T10:00:00Z")                                              // 8: no acknowledgment
        let (db, found) = try await Self.run(h)
        #expect(found["acks"] == ["6 acknowledgment-version-false [1, 6]"])
        let report = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(
                .init(log: "acks", jurisdiction: "US-TX", from: AsOf.date("2026-10-01T00:00:00Z")!, to: AsOf.date("2026-11-01T00:00:00Z")!),
                pool: client).report
        }
        let change = report["significantChanges"]?.arrayValue?.first { $0["changeId"] == .string(RuleHistory.change) }
        #expect(change?["adultsAcknowledged"] == 1)
    }
}
