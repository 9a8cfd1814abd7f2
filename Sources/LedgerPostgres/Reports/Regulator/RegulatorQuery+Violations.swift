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

    /// ConsentRescinded in the period, each with the first AccessGateApplied closing a feature of
    /// the same app for the same subject after it (at positions up to the report's, whenever it
    /// occurred); and the violations: enforced beyond the policy window, or not at all once the
    /// window has passed by the period's end.
    func rescissions(on connection: PostgresConnection, erased: Set<String>) async throws -> (JSONValue, [RegulatorViolation]) {
        let window = Int64(policy.rescissionEnforcementWindowHours) * 3_600
        let periodEnd = Int64(parameters.to.timeIntervalSince1970.rounded(.down))
        var delays: [Int64] = [], inTime: Int64 = 0, late: Int64 = 0, missing: Int64 = 0
        var violations: [RegulatorViolation] = []
        let rows = try await run(ReportSQL.Regulator.rescissions, on: connection)
        let applies = { (jurisdiction: String?) in policy.applies("rescission-not-enforced", jurisdiction: jurisdiction) }
        for try await (position, eventId, subject, occurredAt, epoch, gatePosition, gateEventId, delay, jurisdiction)
            in rows.decode((Int64, String, String?, String, Int64, Int64?, String?, Int64?, String?).self) {
            var violation = RegulatorViolation(rule: "rescission-not-enforced", subject: subject,
                                               subjectErased: subject.map(erased.contains) ?? false, occurredAt: occurredAt,
                                               position: position, eventId: eventId, detail: "",
                                               evidence: [(position, eventId)])
            if let gatePosition, let gateEventId, let delay {
                delays.append(delay)
                if delay <= window { inTime += 1; continue }
                late += 1
                violation.detail = "access was closed \(Self.duration(delay)) after the rescission (position \(gatePosition)), "
                    + "beyond the \(policy.rescissionEnforcementWindowHours)-hour window"
                violation.evidence.append((gatePosition, gateEventId))
                if applies(jurisdiction) { violations.append(violation) }
            } else {
                missing += 1
                guard epoch + window < periodEnd else { continue }
                violation.detail = "no AccessGateApplied closed the app's feature for the subject after the rescission "
                    + "(the \(policy.rescissionEnforcementWindowHours)-hour window ended before the period did)"
                if applies(jurisdiction) { violations.append(violation) }
            }
        }
        delays.sort()
        let median: JSONValue = delays.isEmpty ? .null
            : Self.number(delays.count % 2 == 1 ? delays[delays.count / 2]
                          : Int64((Double(delays[delays.count / 2 - 1] + delays[delays.count / 2]) / 2).rounded()))
        return (["count": Self.number(inTime + late + missing), "enforcedWithinWindow": Self.number(inTime),
                 "enforcedLate": Self.number(late), "notEnforced": Self.number(missing),
                 "medianSecondsToEnforcement": median, "maxSecondsToEnforcement": delays.last.map(Self.number) ?? .null],
                violations)
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
