import Foundation

/// The envelope of a fact the ledger records about itself (`SubjectErased`, `RetentionApplied`):
/// a fresh event id, occurring `now`, by the ledger or by the operator named. Written once for the
/// operations that record them (``SubjectErasure``, ``RetentionRun``).
enum LedgerFactEvent {
    static func event(type: String, schemaVersion: Int, stream: String, subject: String? = nil, operatorId: String?,
                      payload: [String: JSONValue], now: Date) throws(LedgerError) -> EventInput {
        var actor: [String: JSONValue] = ["kind": .string(operatorId == nil ? "ledger" : "operator")]
        if let operatorId { actor["id"] = .string(operatorId) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var object: [String: JSONValue] = [
            "eventId": .string(UUID().uuidString.lowercased()),
            "stream": .string(stream),
            "type": .string(type),
            "schemaVersion": .number(Double(schemaVersion)),
            "occurredAt": .string(formatter.string(from: now)),
            "actor": .object(actor),
            "payload": .object(payload),
        ]
        if let subject { object["subject"] = .string(subject) }
        return try EventInput(json: .object(object))
    }
}
