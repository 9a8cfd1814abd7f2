import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportModel

/// `consent-ledger report consent-register`.
struct ReportConsentRegister: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent-register",
        abstract: "Who approved what and when: one row per permission question and age-rating exception.",
        discussion: """
            Columns: \(ConsentRegisterReport.columns.joined(separator: ", ")). `answer` is approval, denial, \
            expired, pending, rescinded or failed; `answeredBy` is the guardian's pseudonym, or "not disclosed \
            by platform" (PermissionKit does not say who answered). JSON: one canonical (RFC 8785) object \
            whose `sha256` member seals the rest (remove it and hash the canonical form to check). CSV: \
            RFC 4180, its SHA-256 printed on standard error. HTML: one self-contained printable page with charts, \
            showing the JSON report's seal. With --out, FILE.sha256 holds the SHA-256 of the file's bytes.

            EXAMPLES:
              consent-ledger report consent-register --log acme --from 2026-07-01 --to 2026-10-01 --format csv --out register-q3.csv
              consent-ledger report consent-register --log acme --subject p_7f3a9c --format html --out register-p_7f3a9c.html
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @OptionGroup var options: ReportOptions

    @Option(help: ArgumentHelp("Only items asked at or after this day or time (2026-07-01, or RFC 3339).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Only items asked before this day or time.", valueName: "time"))
    var to: String?

    @Option(help: "Only this subject's items.")
    var subject: String?

    @Option(help: "json, csv or html.")
    var format: ReportFormat = .json

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var out: String?

    func run() async throws {
        let from = try from.map { try ReportTime.parse($0, option: "from") }, to = try to.map { try ReportTime.parse($0, option: "to") }
        let policy = try options.loadPolicy()
        let bar = ProgressBar(label: "consent register", unit: "positions")
        let result = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            let asOf = try await options.position(log: log, ledger: ledger)
            let parameters = ConsentRegisterReport.Parameters(log: log, asOf: asOf, from: from, to: to, subject: subject,
                                                              dateOfIssue: policy.dateOfIssue)
            if let subject {
                try await ReadRecording.record(ledger, log: log, what: "consent-register", subject: subject,
                                               detail: "as of \(asOf.map(String.init) ?? "the head"), \(format)")
            }
            return try await ledger.consentRegister(parameters, progress: { done, total in
                bar.update(done: done, total: total)
            }, note: Console.note)
        }
        bar.finish()
        try ReportOutput.finish(format, json: result.json, seal: result.sha256, csv: { ConsentRegisterReport.csv(result.rows) },
                                policy: policy, to: out, describing: "consent register of log \(log) as of position \(result.provenance.position) "
                                    + "(chain hash \(result.provenance.headHash)): \(result.rows.count) row\(result.rows.count == 1 ? "" : "s")")
    }
}
