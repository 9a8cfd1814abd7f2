import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// `consent-ledger erase`.
struct Erase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Erase a subject's personal data by destroying their key, and record it (SubjectErased).",
        discussion: """
            Crypto-shredding: personal-data fields (contact handles, free-text notes, operator reasons) are \
            stored encrypted under a per-subject key kept outside the hash chain. This command destroys that \
            key and appends a SubjectErased event, in one transaction. Afterwards those fields read as \
            {"$erased":true}; every other field stays readable, and `verify` still passes because the \
            stored bytes did not change. New personal data for the subject is refused from then on. \
            Needs administrator rights (the embedded database has them).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant).")
    var log: String

    @Option(help: "The subject's pseudonym.")
    var subject: String

    @Option(help: "Why: erasureRequest, retentionPolicy, accountClosed, consentRescinded or legalObligation.")
    var reason: String

    @Option(help: "A reference to the request, such as a ticket id (never free text).")
    var requestReference: String?

    @Option(help: "The pseudonym of the operator who erases (recorded as the event's actor).")
    var operatorId: String?

    func run() async throws {
        var payload: [String: JSONValue] = ["subjectId": .string(subject), "reason": .string(reason)]
        if let requestReference { payload["requestReference"] = .string(requestReference) }
        var actor: [String: JSONValue] = ["kind": .string(operatorId == nil ? "ledger" : "operator")]
        if let operatorId { actor["id"] = .string(operatorId) }
        let event: JSONValue = .object([
            "eventId": .string(UUID().uuidString.lowercased()),
            "stream": .string("subject-" + subject),
            "type": "SubjectErased",
            "schemaVersion": 1,
            "occurredAt": .string(Self.now()),
            "subject": .string(subject),
            "actor": .object(actor),
            "payload": .object(payload),
        ])
        let erasure = try EventInput(json: event)
        let appended = try await LedgerDatabase.with(try database.target(), role: .administrator, progress: Console.note) { client in
            try await EventStore(client: client).erase(log: log, subject: subject, erasure: erasure)
        }
        Console.note("erased subject \(subject) in log \(log): key destroyed; SubjectErased recorded at position \(appended.position)")
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
