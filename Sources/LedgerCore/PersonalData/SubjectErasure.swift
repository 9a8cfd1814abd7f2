import Foundation

/// The `SubjectErased` event that records an erasure (docs/design/events.md), built the same way by the CLI's
/// `erase` and the HTTP API's erase route.
public enum SubjectErasure {
    /// The reasons the catalogue allows.
    public static let reasons = ["erasureRequest", "retentionPolicy", "accountClosed", "consentRescinded", "legalObligation"]

    /// The event erasing `subject`, occurring `now`, by the ledger itself or by `operatorId`.
    public static func event(subject: String, reason: String, requestReference: String? = nil, operatorId: String? = nil,
                             now: Date = Date()) throws(LedgerError) -> EventInput {
        var payload: [String: JSONValue] = ["subjectId": .string(subject), "reason": .string(reason)]
        if let requestReference { payload["requestReference"] = .string(requestReference) }
        return try LedgerFactEvent.event(type: SubjectErased.eventType, schemaVersion: SubjectErased.schemaVersion,
                                         stream: "subject-" + subject, subject: subject, operatorId: operatorId, payload: payload, now: now)
    }
}
