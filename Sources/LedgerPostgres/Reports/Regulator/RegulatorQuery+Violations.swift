import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// The subjects erased at positions up to the report's (read from the log: erasures are few).
    func erasedSubjects(on connection: PostgresConnection) async throws -> Set<String> {
        var erased: Set<String> = []
        for try await subject in try await run("""
            SELECT coalesce(e.subject, convert_from(e.record, 'UTF8')::jsonb #>> '{event,payload,subjectId}')
              FROM ledger.events e
             WHERE e.log_id = $1 AND e.type = 'SubjectErased' AND e.position <= $2
            """, on: connection).decode(String?.self) {
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
        let rows = try await run("""
            SELECT r.position, r.event_id::text, r.subject, \(Self.utc("r.occurred_at")),
                   extract(epoch FROM r.occurred_at)::bigint, g.position, g.event_id::text,
                   extract(epoch FROM g.occurred_at - r.occurred_at)::bigint
              FROM regulator_period r
              LEFT JOIN LATERAL (SELECT g.position, g.event_id, g.occurred_at FROM facts g
                                  WHERE g.log_id = $1 AND g.type = 'AccessGateApplied' AND g.gate_state = 'closed'
                                    AND g.subject = r.subject AND g.bundle_id = r.bundle_id
                                    AND g.position > r.position AND g.position <= $2
                                  ORDER BY g.position LIMIT 1) g ON true
             WHERE r.type = 'ConsentRescinded'
             ORDER BY r.position
            """, on: connection)
        for try await (position, eventId, subject, occurredAt, epoch, gatePosition, gateEventId, delay)
            in rows.decode((Int64, String, String?, String, Int64, Int64?, String?, Int64?).self) {
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
                violations.append(violation)
            } else {
                missing += 1
                guard epoch + window < periodEnd else { continue }
                violation.detail = "no AccessGateApplied closed the app's feature for the subject after the rescission "
                    + "(the \(policy.rescissionEnforcementWindowHours)-hour window ended before the period did)"
                violations.append(violation)
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

    /// The rule findings of the `anomalies` projection about events of the period.
    func ruleViolations(on connection: PostgresConnection, erased: Set<String>) async throws -> [RegulatorViolation] {
        var found: [RegulatorViolation] = []
        let rows = try await run("""
            SELECT x.kind, x.position, x.event_id::text, x.subject, \(Self.utc("p.occurred_at")), x.detail,
                   x.related_position, r.event_id::text
              FROM findings x
              JOIN regulator_period p ON p.position = x.position
              LEFT JOIN facts r ON r.log_id = $1 AND r.position = x.related_position
             WHERE x.log_id = $1 AND x.source = 'rule' AND x.position <= $2
             ORDER BY x.position, x.kind
            """, on: connection)
        for try await (kind, position, eventId, subject, occurredAt, detail, relatedPosition, relatedEventId)
            in rows.decode((String, Int64, String, String?, String, String, Int64?, String?).self) {
            var evidence: [(position: Int64, eventId: String)] = []
            if let relatedPosition, let relatedEventId { evidence.append((relatedPosition, relatedEventId)) }
            evidence.append((position, eventId))
            found.append(RegulatorViolation(rule: kind, subject: subject, subjectErased: subject.map(erased.contains) ?? false,
                                            occurredAt: occurredAt, position: position, eventId: eventId, detail: detail,
                                            evidence: evidence.sorted { $0.position < $1.position }))
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
