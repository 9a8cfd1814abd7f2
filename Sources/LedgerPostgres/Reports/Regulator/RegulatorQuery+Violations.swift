import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// The subjects erased at positions up to the report's (read from the log: erasures are few).
    func erasedSubjects(on connection: PostgresConnection) async throws -> Set<String> {
        var erased: Set<String> = []
        for try await subject in try await run(ReportSQL.Regulator.erasedSubjects, on: connection).decode(String?.self) {
            if let subject { erased.insert(subject) }
        }
        return erased
    }

    /// ConsentRescinded in the period, each with how it was enforced (``WithdrawalEnforcement``:
    /// when the ledger told the app, when the app closed the feature, at positions up to the
    /// report's, whenever they occurred); and the violations: closed beyond the policy window, or not
    /// at all once the window has passed by the period's end.
    func rescissions(on connection: PostgresConnection, erased: Set<String>) async throws -> (JSONValue, [RegulatorViolation]) {
        let window = Int64(policy.rescissionEnforcementWindowHours) * 3_600
        let periodEnd = Int64(parameters.to.timeIntervalSince1970.rounded(.down))
        var delays: [Int64] = [], tellDelays: [Int64] = [], inTime: Int64 = 0, late: Int64 = 0, missing: Int64 = 0
        var violations: [RegulatorViolation] = []
        var withdrawals: [(position: Int64, eventId: String, subject: String?, occurredAt: String, epoch: Int64, jurisdiction: String?)] = []
        for try await row in try await run(ReportSQL.Regulator.rescissions, on: connection)
            .decode((Int64, String, String?, String, Int64, String?).self) {
            withdrawals.append(row)
        }
        let enforcement = try await WithdrawalEnforcement.read(log: parameters.log, asOf: position,
                                                               positions: withdrawals.map(\.position), on: connection, logger: logger)
        let applies = { (jurisdiction: String?) in policy.applies("rescission-not-enforced", jurisdiction: jurisdiction) }
        var listed: [JSONValue] = []
        for (position, eventId, subject, occurredAt, epoch, jurisdiction) in withdrawals {
            let enforced = enforcement[position] ?? WithdrawalEnforcement()
            listed.append(Self.withdrawal(position: position, eventId: eventId, subject: subject, occurredAt: occurredAt, enforced))
            if let told = enforced.told { tellDelays.append(told.seconds) }
            var violation = RegulatorViolation(rule: "rescission-not-enforced", subject: subject,
                                               subjectErased: subject.map(erased.contains) ?? false, occurredAt: occurredAt,
                                               position: position, eventId: eventId, detail: "",
                                               evidence: [(position, eventId)])
            if let closed = enforced.closed {
                delays.append(closed.seconds)
                if closed.seconds <= window { inTime += 1; continue }
                late += 1
                violation.detail = "access was closed \(Self.duration(closed.seconds)) after the rescission (position \(closed.position)), "
                    + "beyond the \(policy.rescissionEnforcementWindowHours)-hour window"
                    + (enforced.told.map { "; the ledger told the app \(Self.duration($0.seconds)) after it (position \($0.position))" } ?? "")
                violation.evidence.append((closed.position, closed.eventId))
                if applies(jurisdiction) { violations.append(violation) }
            } else {
                missing += 1
                guard epoch + window < periodEnd else { continue }
                violation.detail = "no AccessGateApplied closed the app's feature for the subject after the rescission "
                    + "(the \(policy.rescissionEnforcementWindowHours)-hour window ended before the period did)"
                    + (enforced.told.map { "; the ledger told the app \(Self.duration($0.seconds)) after it (position \($0.position))" } ?? "")
                if applies(jurisdiction) { violations.append(violation) }
            }
        }
        return (["count": Self.number(inTime + late + missing), "enforcedWithinWindow": Self.number(inTime),
                 "enforcedLate": Self.number(late), "notEnforced": Self.number(missing),
                 "medianSecondsToEnforcement": Self.median(delays), "maxSecondsToEnforcement": delays.max().map(Self.number) ?? .null,
                 "told": Self.number(Int64(tellDelays.count)), "medianSecondsToTell": Self.median(tellDelays),
                 "maxSecondsToTell": tellDelays.max().map(Self.number) ?? .null, "withdrawals": .array(listed)],
                violations)
    }

    /// The median of `values` in whole seconds (the mean of the middle two, rounded), or null.
    static func median(_ values: [Int64]) -> JSONValue {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .null }
        return number(sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                      : Int64((Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2).rounded()))
    }

    /// One withdrawal as the report lists it: the rescission, when the app was told, when it closed the feature.
    static func withdrawal(position: Int64, eventId: String, subject: String?, occurredAt: String,
                           _ enforced: WithdrawalEnforcement) -> JSONValue {
        func step(_ step: WithdrawalEnforcement.Step?) -> JSONValue {
            guard let step else { return .null }
            return ["position": number(step.position), "eventId": .string(step.eventId), "at": .string(step.at),
                    "secondsAfterRescission": number(step.seconds)]
        }
        return ["position": number(position), "eventId": .string(eventId), "subject": subject.map(JSONValue.string) ?? .null,
                "rescindedAt": .string(occurredAt), "told": step(enforced.told), "closed": step(enforced.closed)]
    }

    /// The violations of `age-signal-expired`: the period's openings whose age signal is older than
    /// the policy's re-check interval. None when the policy sets no interval (the rule is not judged).
    func expiredAgeSignals(on connection: PostgresConnection, erased: Set<String>) async throws -> [RegulatorViolation] {
        guard let days = policy.ageSignalRecheckDays, let interval = policy.ageSignalRecheckSeconds else { return [] }
        var violations: [RegulatorViolation] = []
        // The statement keeps the signals older than the interval (ReportPolicy.ageSignalExpired, in SQL).
        let rows = try await run(ReportSQL.Regulator.ageSignalsExpired, extra: interval, on: connection)
        for try await (position, eventId, subject, occurredAt, signalPosition, signalEventId, age, jurisdiction)
            in rows.decode((Int64, String, String?, String, Int64, String, Int64, String?).self) {
            guard policy.applies("age-signal-expired", jurisdiction: jurisdiction) else { continue }
            violations.append(RegulatorViolation(
                rule: "age-signal-expired", subject: subject, subjectErased: subject.map(erased.contains) ?? false,
                occurredAt: occurredAt, position: position, eventId: eventId,
                detail: Self.expiredSignalDetail(age: age, signalPosition: signalPosition, days: days),
                evidence: [(signalPosition, signalEventId), (position, eventId)]))
        }
        return violations
    }

    /// What `age-signal-expired` says of an opening, in the report and in `explain` alike.
    static func expiredSignalDetail(age: Int64, signalPosition: Int64, days: Int) -> String {
        "opened on an age signal \(duration(age)) old (position \(signalPosition)), beyond the policy's re-check interval of \(days) days"
    }

    /// The rule findings of the `anomalies` projection about events of the period, those the policy
    /// applies (a rule it turns off, or limits to other jurisdictions, is left out).
    func ruleViolations(on connection: PostgresConnection, erased: Set<String>) async throws -> [RegulatorViolation] {
        var found: [RegulatorViolation] = []
        let rows = try await run(ReportSQL.Regulator.ruleViolations, on: connection)
        for try await (kind, position, eventId, subject, occurredAt, detail, positions, eventIds, jurisdiction, review)
            in rows.decode((String, Int64, String, String?, String, String, [Int64], [String], String?, String?).self) {
            guard policy.applies(kind, jurisdiction: jurisdiction) else { continue }
            found.append(RegulatorViolation(rule: kind, subject: subject, subjectErased: subject.map(erased.contains) ?? false,
                                            occurredAt: occurredAt, position: position, eventId: eventId, detail: detail,
                                            evidence: Array(zip(positions, eventIds)), needsReview: review))
        }
        return found
    }

    /// `seconds` in words: "2 d 3 h 4 min 5 s".
    static func duration(_ seconds: Int64) -> String {
        let parts = [(seconds / 86_400, "d"), (seconds % 86_400 / 3_600, "h"), (seconds % 3_600 / 60, "min"), (seconds % 60, "s")]
        let shown = parts.drop { $0.0 == 0 }.filter { $0.0 != 0 }
        return shown.isEmpty ? "0 s" : shown.map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }
}
