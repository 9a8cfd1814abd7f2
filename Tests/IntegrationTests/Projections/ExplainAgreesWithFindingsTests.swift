import Foundation
import LedgerCore
@testable import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// `explain` and the findings tell one story (issue 37, "verdicts that disagree"): on a history
/// whose regulator report listed access-without-approval on an opening, `explain` of that opening
/// said `approvalRequired: false`, because it read the parental controls alone while the rule also
/// reads DeclaredAgeRange's `requiredRegulatoryFeatures`. Simulated histories, for several seeds
/// (breaches are rare in them, so the histories are long): every opening with a finding and every
/// tenth of the others is explained as of its position; each finding on it is in `explain`'s
/// verdict, failed unless the policy does not apply it, nothing else failed, and the facts
/// `explain` shows support each finding.
@Suite("explain agrees with the findings on every opening")
struct ExplainAgreesWithFindingsTests {
    @Test("openings of three simulated histories: explain's verdict is the findings, and the facts it shows support them",
          arguments: [UInt64(3), 11, 29])
    func everyOpening(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        _ = try await ProjectionTestSupport.appendSimulated(db, families: 80, days: 120, seed: seed, batchSize: 2_000)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let onOpenings = Set(RuleCatalogue.onOpenedFeatures.map(\.id))
        var openings = 0, withFindings = 0
        try await db.as(.auditor) { client async throws in
            var gates: [(Int64, String, String, String)] = []
            for try await row in try await client.query("""
                SELECT position, subject, convert_from(record, 'UTF8')::jsonb #>> '{event,payload,feature}',
                       coalesce(convert_from(record, 'UTF8')::jsonb #>> '{event,app,bundleId}', '')
                  FROM ledger.events
                 WHERE log_id = 'sim' AND type = 'AccessGateApplied' AND subject IS NOT NULL
                   AND convert_from(record, 'UTF8')::jsonb #>> '{event,payload,state}' = 'open'
                 ORDER BY position
                """).decode((Int64, String, String, String).self) { gates.append(row) }
            var found: [Int64: Set<String>] = [:]
            for try await (position, kind) in try await client.query("""
                SELECT position, kind FROM anomalies.findings WHERE log_id = 'sim' AND source = 'rule'
                """).decode((Int64, String).self) { found[position, default: []].insert(kind) }
            for (index, (position, subject, feature, app)) in gates.enumerated() {
                let kinds = found[position] ?? []
                guard !kinds.isEmpty || index % 10 == 0 else { continue }
                let explained = try await FeatureExplanation.explain(log: "sim", subject: subject, feature: feature,
                                                                     asOf: .position(position), pool: client)
                let decision = try #require(explained.decisions.first { $0.app == app && $0.gate.position == position },
                                            "#\(position): explain has no decision for its own gate")
                openings += 1
                if !kinds.isEmpty { withFindings += 1 }
                let judged = try #require(decision.judgedOn, "#\(position): explain shows no facts for an opening")
                let verdict = Dictionary(decision.rules.map { ($0.rule, $0.outcome) }, uniquingKeysWith: { first, _ in first })
                for kind in kinds {
                    #expect(onOpenings.contains(kind), "#\(position): finding \(kind) is not a rule on openings")
                    #expect(verdict[kind] == .failed || verdict[kind] == .notApplied,
                            "#\(position): the finding \(kind) is \(verdict[kind].map { "\($0)" } ?? "missing") in explain")
                }
                let failedWithoutFinding = decision.rules.filter { $0.outcome == .failed && !kinds.contains($0.rule) && $0.rule != "age-signal-expired" }
                #expect(failedWithoutFinding.isEmpty, "#\(position): explain failed \(failedWithoutFinding.map(\.rule)) with no finding")
                if kinds.contains("access-without-approval") {
                    #expect(judged.approvalRequired && judged.changeId != nil && judged.word == nil,
                            "#\(position): access-without-approval, but explain shows \(judged.lines)")
                    #expect(decision.ageAtDecision["approvalRequired"] == true,
                            "#\(position): access-without-approval, but ageAtDecision says \(decision.ageAtDecision)")
                }
                if kinds.contains("access-after-rescission") {
                    #expect(judged.withdrawalPosition != nil, "#\(position): access-after-rescission, but explain shows \(judged.lines)")
                }
                if kinds.contains("access-after-denial") {
                    #expect(judged.word == "denial", "#\(position): access-after-denial, but explain shows \(judged.lines)")
                }
                if kinds.contains("adult-access-without-acknowledgment") {
                    #expect(judged.verifiedAdult && judged.notificationRequired && judged.acknowledgmentPosition == nil,
                            "#\(position): adult-access-without-acknowledgment, but explain shows \(judged.lines)")
                }
            }
        }
        #expect(openings > 20, "seed \(seed): only \(openings) openings: the history is too small to say much")
        #expect(withFindings > 0, "seed \(seed): no opening had a finding: the history tests nothing")
    }

    @Test("an opening that needed approval because DeclaredAgeRange required consent: explain says approval was required, and by what")
    func requiredByDeclaredAgeRange() async throws {
        // 1 the change, 2 DeclaredAgeRange's requirement, 3 the age range, 4 the opening.
        let fires = RuleHistory.openingAfterChange(log: "fires", requirement: "significantAppChangeRequiresParentalConsent")
        let byControls = RuleHistory.openingAfterChange(log: "by-controls", requirement: "declaredAgeRangeRequired",
                                                        controls: ["significantAppChangeApprovalRequired"])
        let quiet = RuleHistory.openingAfterChange(log: "quiet", requirement: "declaredAgeRangeRequired")
        let db = try await TestDatabase.create()
        for history in [fires, byControls, quiet] { try await history.append(db) }
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        try await db.as(.auditor) { client async throws in
            for (log, required, by, failed) in [("fires", true, "DeclaredAgeRange's requirement of parental consent (#2)", ["access-without-approval"]),
                                                ("by-controls", true, "the device's parental controls (age signal #3)", ["access-without-approval"]),
                                                ("quiet", false, "not required", [])] {
                let explained = try await FeatureExplanation.explain(log: log, subject: "p_k", feature: "rooms", asOf: .head, pool: client)
                let decision = try #require(explained.decisions.first)
                #expect(decision.rules.filter(\.failed).map(\.rule) == failed, "\(log)")
                #expect(decision.ageAtDecision["approvalRequired"] == .bool(required), "\(log): \(decision.ageAtDecision)")
                let lines = decision.judgedOn?.lines ?? []
                #expect(lines.contains { $0.hasPrefix("A parent's approval of significant changes:") && $0.hasSuffix(by) }, "\(log): \(lines)")
                #expect(lines.contains("The app's significant change in force: c-rooms (#1)"), "\(log): \(lines)")
                #expect(lines.contains("The parent's latest word on it: none on record"), "\(log): \(lines)")
            }
        }
    }

    @Test("each enforced rescission of a simulated history, and a late one by hand: explain of the closing is late exactly when the regulator report lists it late")
    func rescissionsAgreeWithTheReport() async throws {
        let db = try await TestDatabase.create()
        _ = try await ProjectionTestSupport.appendSimulated(db, families: 80, days: 120, seed: 5, batchSize: 2_000)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let from = AsOf.date("2026-01-01T00:00:00Z")!, to = AsOf.date("2028-01-01T00:00:00Z")!
        // A tight window, so that some closings are late.
        let policy = try ReportPolicy.parse(Array(#"{"rescissionEnforcementWindowHours": 1}"#.utf8))
        var late: Set<Int64> = []
        for jurisdiction in ["US", "GB", "EU", "AU"] {
            let report = try await db.as(.auditor) { client async throws in
                try await RegulatorReport.compute(.init(log: "sim", jurisdiction: jurisdiction, from: from, to: to), policy: policy,
                                                  pool: client).report
            }
            for violation in report["violations"]?.arrayValue ?? [] where violation["rule"] == "rescission-not-enforced" {
                let evidence = violation["evidencePositions"]?.arrayValue?.compactMap(\.intValue) ?? []
                if evidence.count == 2 { late.insert(Int64(evidence[0])) }
            }
        }
        var judged = 0
        try await db.as(.auditor) { client async throws in
            var enforced: [(Int64, Int64, String, String)] = []
            for try await row in try await client.query("""
                SELECT r.position, r.enforced_position, r.subject, convert_from(e.record, 'UTF8')::jsonb #>> '{event,payload,feature}'
                  FROM anomalies.rescissions r JOIN ledger.events e ON e.log_id = r.log_id AND e.position = r.enforced_position
                 WHERE r.log_id = 'sim' AND r.enforced_position IS NOT NULL ORDER BY r.position
                """).decode((Int64, Int64, String, String).self) { enforced.append(row) }
            for (rescission, closing, subject, feature) in enforced {
                let explained = try await FeatureExplanation.explain(log: "sim", subject: subject, feature: feature,
                                                                     asOf: .position(closing), policy: policy, pool: client)
                let decision = try #require(explained.decisions.first { $0.gate.position == closing }, "#\(closing)")
                let check = try #require(decision.rules.first { $0.rule == "rescission-not-enforced" && $0.evidence.first == rescission },
                                         "#\(closing): explain does not judge the rescission at #\(rescission)")
                judged += 1
                #expect(check.failed == late.contains(rescission),
                        "rescission #\(rescission) closed at #\(closing): explain says \(check.outcome), the report \(late.contains(rescission) ? "lists it late" : "does not")")
            }
        }
        #expect(judged > 5, "\(judged) closings judged: the history tests too little")
        // Simulated apps close within the hour; a late closing is written by hand: 26 hours after.
        let h = RuleHistory.lateClosing(log: "late")   // 3 the rescission, 4 the closing 26 hours later
        try await h.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        for (hours, isLate) in [(24, true), (48, false)] {
            let window = try ReportPolicy.parse(Array(#"{"rescissionEnforcementWindowHours": \#(hours)}"#.utf8))
            try await db.as(.auditor) { client async throws in
                let report = try await RegulatorReport.compute(.init(log: "late", jurisdiction: "US-TX", from: from, to: to), policy: window,
                                                               pool: client).report
                let listed = (report["violations"]?.arrayValue ?? []).contains { $0["rule"] == "rescission-not-enforced" }
                let explained = try await FeatureExplanation.explain(log: "late", subject: "p_k", feature: "rooms", asOf: .head,
                                                                     policy: window, pool: client)
                let check = explained.decisions.first?.rules.first { $0.rule == "rescission-not-enforced" }
                #expect(listed == isLate && check?.failed == isLate, "\(hours) h: the report \(listed), explain \(String(describing: check?.outcome))")
            }
        }
    }
}
