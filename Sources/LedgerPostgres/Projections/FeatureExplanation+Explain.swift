import Foundation
import LedgerCore
import Logging
import PostgresNIO

extension FeatureExplanation {

    /// Explains `feature` for `subject` in `log` as of `asOf`; a rescission is judged against `policy`'s window.
    /// - Throws: `log-not-found`, `subject-not-found` (the log has no event about the subject) and
    ///   `feature-not-found` (no AccessGateApplied of the log names the feature), before any folding.
    public static func explain(log: String, subject: String, feature: String, asOf: AsOf, policy: ReportPolicy = .defaults,
                               pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.explain")) async throws -> FeatureExplanation {
        _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let checks = SubjectChecks(pool: pool, logger: logger)
        try await checks.requireSubject(log: log, subject: subject)
        try await checks.requireFeature(log: log, feature: feature)
        let projections = [ProjectionDefinition.named(.subjectState), ProjectionDefinition.named(.anomalies)]
        let filter = asOf.filter(subject: subject)
        return try await TimeTravel(pool: pool, logger: logger)
            .withState(log: log, projections: projections, asOf: asOf, subject: subject) { connection, last in
                var decisions: [Decision] = []
                var rows: [(String, String, Int64, [String])] = []
                for try await row in try await connection.watchedQuery("""
                    SELECT bundle_id, state, position, basis::text[] FROM features
                     WHERE log_id = \(log) AND subject = \(subject) AND feature = \(feature)
                     ORDER BY bundle_id
                    """, logger: logger).decode((String, String, Int64, [String]).self) { rows.append(row) }
                let history = try await ReplayedEvent.read(log: log, subject: subject, through: last, filter: filter,
                                                           on: connection, logger: logger)
                    .filter { $0.type == "AccessGateApplied" && $0.payload["feature"]?.stringValue == feature }
                for (app, state, position, basis) in rows {
                    let appHistory = history.filter { ($0.app ?? "") == app }
                    guard let gate = appHistory.first(where: { $0.position == position }) else { continue }
                    let cited = try await ReplayedEvent.read(log: log, eventIds: basis, on: connection, logger: logger)
                    var problems: [String] = []
                    for id in basis {
                        guard let event = cited.first(where: { $0.eventId == id.lowercased() }) else {
                            problems.append("\(id) is not an event of log \(log)")
                            continue
                        }
                        if event.position >= position { problems.append("\(id) (position \(event.position)) comes after the gate") }
                    }
                    var age = JSONValue.null
                    let judgedOn = state == "open" ? try await OpeningInputs.read(log: log, position: position, on: connection, logger: logger) : nil
                    if let judgedOn {
                        if let agePosition = judgedOn.agePosition {
                            age = .object(["category": judgedOn.category.map { .string($0) } ?? .null,
                                           "approvalRequired": .bool(judgedOn.approvalRequired), "position": .number(Double(agePosition))])
                        }
                    } else {
                        for try await text in try await connection.watchedQuery("""
                            SELECT jsonb_build_object('category', category, 'approvalRequired', approval_required, 'position', position)::text
                              FROM age_signals WHERE log_id = \(log) AND subject = \(subject) AND position < \(position)
                             ORDER BY position DESC LIMIT 1
                            """, logger: logger).decode(String.self) { age = try JSONParser.parse(text) }
                    }
                    let rules = try await ruleChecks(log: log, subject: subject, state: state, position: position, policy: policy,
                                                     on: connection, logger: logger)
                    var answers: [String] = []
                    for try await (answer, change, at) in try await connection.watchedQuery("""
                        SELECT answer, coalesce('change ' || change_id, 'the pending change (Play)'), position FROM answers
                         WHERE log_id = \(log) AND subject = \(subject) AND bundle_id = \(app) AND position < \(position)
                         ORDER BY position
                        """, logger: logger).decode((String, String, Int64).self) { answers.append("\(answer) of \(change) (#\(at))") }
                    var rescissionIds: [String] = []
                    if state == "open" {
                        for try await id in try await connection.watchedQuery("""
                            SELECT event_id::text FROM rescissions
                             WHERE log_id = \(log) AND subject = \(subject) AND bundle_id = \(app) AND position > \(position)
                             ORDER BY position
                            """, logger: logger).decode(String.self) { rescissionIds.append(id) }
                    }
                    let rescissions = try await ReplayedEvent.read(log: log, eventIds: rescissionIds, on: connection, logger: logger)
                    decisions.append(Decision(app: app, state: state, gate: gate, cited: cited, citedProblems: problems,
                                              ageAtDecision: age, judgedOn: judgedOn, rules: rules, parentalAnswers: answers, laterRescissions: rescissions,
                                              history: appHistory))
                }
                var others: [String] = []
                if decisions.isEmpty {
                    for try await name in try await connection.watchedQuery("""
                        SELECT DISTINCT feature FROM features WHERE log_id = \(log) AND subject = \(subject) ORDER BY feature
                        """, logger: logger).decode(String.self) { others.append(name) }
                }
                return FeatureExplanation(log: log, subject: subject, feature: feature, asOf: asOf, throughPosition: last,
                                          decisions: decisions, otherFeatures: others)
            }
    }

    /// The rules that judge a decision: for an opening, every rule of the catalogue judged on an
    /// opened feature (failed where the anomalies projection found it); for a closing, whether it
    /// enforced a rescission within the policy's window. A rule the policy does not apply to the
    /// gate's jurisdiction is listed as not applied.
    static func ruleChecks(log: String, subject: String, state: String, position: Int64, policy: ReportPolicy,
                           on connection: PostgresConnection, logger: Logger) async throws -> [RuleCheck] {
        // A rule is judged on one event, so the policy applies it by that event's jurisdiction.
        func jurisdiction(at position: Int64) async throws -> String? {
            var found: String?
            for try await code in try await connection.watchedQuery("""
                SELECT convert_from(record, 'UTF8')::jsonb #>> '{event,jurisdiction,code}' FROM ledger.events
                 WHERE log_id = \(log) AND position = \(position)
                """, logger: logger).decode(String?.self) { found = code }
            return found
        }
        func notApplied(_ jurisdiction: String?) -> String {
            "the policy\(policy.policyId.map { " \($0)" } ?? "") does not apply it to "
                + (jurisdiction.map { "events of \($0)" } ?? "events with no jurisdiction")
        }
        var found: [String: (String, [Int64], String?)] = [:]
        for try await (kind, detail, evidence, review) in try await connection.watchedQuery("""
            SELECT kind, detail, evidence, needs_review FROM findings WHERE log_id = \(log) AND position = \(position) ORDER BY kind
            """, logger: logger).decode((String, String, [Int64], String?).self) { found[kind] = (detail, evidence, review) }
        if state == "open" {
            let gateJurisdiction = try await jurisdiction(at: position)
            let signalAge = try await signalAgeCheck(log: log, position: position, policy: policy, on: connection, logger: logger)
            return RuleCatalogue.onOpenedFeatures.map { rule in
                guard policy.applies(rule.id, jurisdiction: gateJurisdiction) else {
                    return RuleCheck(rule: rule.id, outcome: .notApplied, detail: notApplied(gateJurisdiction),
                                     evidence: found[rule.id]?.1 ?? [])
                }
                if rule.id == signalAge.rule { return signalAge }
                if let (detail, evidence, review) = found[rule.id] {
                    return RuleCheck(rule: rule.id, outcome: .failed, detail: detail, evidence: evidence, needsReview: review)
                }
                return RuleCheck(rule: rule.id, outcome: .passed, detail: rule.statement, evidence: [])
            }
        }
        var checks: [RuleCheck] = []
        let window = Int64(policy.rescissionEnforcementWindowHours) * 3_600, hours = policy.rescissionEnforcementWindowHours
        var enforced: [(Int64, Int64)] = []
        for try await row in try await connection.watchedQuery("""
            SELECT position, extract(epoch FROM enforced_at - rescinded_at)::bigint FROM rescissions
             WHERE log_id = \(log) AND subject = \(subject) AND enforced_position = \(position) ORDER BY position
            """, logger: logger).decode((Int64, Int64).self) { enforced.append(row) }
        for (rescission, delay) in enforced {
            let evidence = [rescission, position]
            // The rule is judged on the rescission, so its jurisdiction decides whether the policy applies it.
            let rescissionJurisdiction = try await jurisdiction(at: rescission)
            if !policy.applies("rescission-not-enforced", jurisdiction: rescissionJurisdiction) {
                checks.append(RuleCheck(rule: "rescission-not-enforced", outcome: .notApplied, detail: notApplied(rescissionJurisdiction),
                                        evidence: evidence))
            } else if delay > window {
                checks.append(RuleCheck(rule: "rescission-not-enforced", outcome: .failed,
                                        detail: "this closing came \(delay / 3_600) h \(delay % 3_600 / 60) min after the rescission at #\(rescission), beyond the \(hours)-hour window",
                                        evidence: evidence))
            } else {
                checks.append(RuleCheck(rule: "rescission-not-enforced", outcome: .passed,
                                        detail: "this closing enforced the rescission at #\(rescission) within the \(hours)-hour window",
                                        evidence: evidence))
            }
        }
        return checks
    }

    /// `age-signal-expired` for the opening at `position`: the age of the subject's latest signal
    /// before it (kept by the anomalies projection in `signal_ages`) against the policy's re-check
    /// interval; not applied when the policy sets none.
    static func signalAgeCheck(log: String, position: Int64, policy: ReportPolicy,
                               on connection: PostgresConnection, logger: Logger) async throws -> RuleCheck {
        let rule = "age-signal-expired"
        guard let days = policy.ageSignalRecheckDays else {
            return RuleCheck(rule: rule, outcome: .notApplied, detail: "the policy sets no re-check interval (ageSignalRecheckDays)",
                             evidence: [])
        }
        var signal: (position: Int64, age: Int64)?
        for try await row in try await connection.watchedQuery("""
            SELECT signal_position, age_seconds FROM signal_ages WHERE log_id = \(log) AND position = \(position)
            """, logger: logger).decode((Int64, Int64).self) { signal = row }
        guard let signal else {
            return RuleCheck(rule: rule, outcome: .passed, detail: "the subject had no age signal before the opening", evidence: [])
        }
        let age = RegulatorQuery.duration(signal.age)
        if policy.ageSignalExpired(ageSeconds: signal.age) {
            return RuleCheck(rule: rule, outcome: .failed,
                             detail: RegulatorQuery.expiredSignalDetail(age: signal.age, signalPosition: signal.position, days: days),
                             evidence: [signal.position, position])
        }
        return RuleCheck(rule: rule, outcome: .passed,
                         detail: "the age signal at #\(signal.position) was \(age) old, within the policy's re-check interval of \(days) days",
                         evidence: [signal.position, position])
    }
}
