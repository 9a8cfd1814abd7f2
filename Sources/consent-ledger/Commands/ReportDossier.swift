import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportModel

/// `consent-ledger report dossier`.
struct ReportDossier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dossier",
        abstract: "A subject's whole history, each event with a sentence, its evidence and the state after it.",
        discussion: """
            For disputes and access requests: every event about the subject up to --as-of, in ledger order, \
            with its position and event id, a plain sentence, and the subject's state after it (the same \
            as `replay`). No payloads, so no personal data. JSON: canonical, sealed by its `sha256` member. \
            CSV: one record per event (columns \(SubjectDossierReport.columns.joined(separator: ", "))), its \
            SHA-256 on standard error and in FILE.sha256 with --out. HTML: one self-contained printable page.

            EXAMPLES:
              consent-ledger report dossier --log acme --subject p_7f3a9c --format html --out p_7f3a9c.html
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "The subject's pseudonym.")
    var subject: String

    @OptionGroup var options: ReportOptions

    @Option(help: "json, csv or html.")
    var format: ReportFormat = .json

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var out: String?

    func run() async throws {
        let policy = try options.loadPolicy()
        let result = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            let asOf = try await options.position(log: log, ledger: ledger)
            try await ReadRecording.record(ledger, log: log, what: "dossier", subject: subject,
                                           detail: "as of \(asOf.map(String.init) ?? "the head"), \(format)")
            return try await ledger.dossier(log: log, subject: subject, asOf: asOf, dateOfIssue: policy.dateOfIssue)
        }
        try ReportOutput.finish(format, json: result.json, seal: result.sha256, csv: { SubjectDossierReport.csv(result.steps) },
                                policy: policy, to: out, describing: "dossier of \(subject) in log \(log) as of position \(result.provenance.position) "
                                    + "(chain hash \(result.provenance.headHash)): \(result.steps.count) event\(result.steps.count == 1 ? "" : "s")")
    }
}
