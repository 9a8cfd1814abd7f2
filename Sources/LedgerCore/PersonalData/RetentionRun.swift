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
        return try LedgerFactEvent.event(type: RetentionApplied.eventType, schemaVersion: RetentionApplied.schemaVersion, stream: stream,
                                         operatorId: operatorId, payload: payload, now: now)
    }
}
