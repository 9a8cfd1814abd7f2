import Foundation
import LedgerCore
@testable import LedgerPostgres
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
                    #expect(judged.approvalRequired && judged.changeId != nil && (judged.word == nil || judged.approvalRescinded),
                            "#\(position): access-without-approval, but explain shows \(judged.lines)")
                    #expect(decision.ageAtDecision["approvalRequired"] == true,
                            "#\(position): access-without-approval, but ageAtDecision says \(decision.ageAtDecision)")
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
}
