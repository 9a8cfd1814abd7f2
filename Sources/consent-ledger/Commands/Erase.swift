import ArgumentParser
import Foundation
import LedgerApplication
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
        let erasure = try SubjectErasure.event(subject: subject, reason: reason, requestReference: requestReference,
                                               operatorId: operatorId)
        let appended = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.erase(log: log, subject: subject, erasure: erasure)
        }
        Console.note("erased subject \(subject) in log \(log): key destroyed; SubjectErased recorded at position \(appended.position)")
    }
}
