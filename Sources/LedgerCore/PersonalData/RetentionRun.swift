import Foundation

/// The `RetentionApplied` event that records a retention run (docs/design/events.md), as the CLI's
/// `retention` builds it: on the log's `retention` stream, by the ledger itself or by an operator.
public enum RetentionRun {
    /// The stream retention runs are recorded on.
    public static let stream = "retention"

    /// The event recording that `policyId` was applied to `scope` for `reason`, occurring `now`.
    /// - Parameters:
    ///   - cutoff: data recorded before this instant (RFC 3339) was in scope, when the policy works by age.
    ///   - subjects: the subjects affected; for the `subjectKeys` scope, those whose keys are destroyed.
    /// - Throws: the catalogue's errors for a value it does not allow (a scope, a reason, a pseudonym).
    public static func event(policyId: String, scope: String, reason: String, cutoff: String? = nil, subjects: [String] = [],
                             operatorId: String? = nil, now: Date = Date()) throws(LedgerError) -> EventInput {
        var payload: [String: JSONValue] = ["policyId": .string(policyId), "scope": .string(scope), "reason": .string(reason)]
        if let cutoff { payload["cutoff"] = .string(cutoff) }
        if !subjects.isEmpty { payload["subjectIds"] = .array(subjects.map { .string($0) }) }
        var actor: [String: JSONValue] = ["kind": .string(operatorId == nil ? "ledger" : "operator")]
        if let operatorId { actor["id"] = .string(operatorId) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return try EventInput(json: .object([
            "eventId": .string(UUID().uuidString.lowercased()),
            "stream": .string(stream),
            "type": .string(RetentionApplied.eventType),
            "schemaVersion": .number(Double(RetentionApplied.schemaVersion)),
            "occurredAt": .string(formatter.string(from: now)),
            "actor": .object(actor),
            "payload": .object(payload),
        ]))
    }
}
