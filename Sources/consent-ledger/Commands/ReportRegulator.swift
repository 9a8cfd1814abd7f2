import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportModel

/// `consent-ledger report regulator`.
struct ReportRegulator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regulator",
        abstract: "One jurisdiction, one period: age signals, consent, changes, exceptions, violations, coverage, retention, integrity.",
        discussion: """
            The period is [--from, --to) on the device clock (each event's occurredAt); an event belongs to \
            the jurisdiction when its envelope's jurisdiction code is the one given or lies within it (US takes \
            in US-TX; EU its 27 member states and their subdivisions). The code must be an ISO 3166 code (or \
            EU): TX is refused (Texas is US-TX). The scope section says which codes were taken in and lists \
            the period's events whose code is not ISO 3166; coverage and retention are titled by the laws \
            that govern the jurisdiction. What became of a question or an exception is what the log holds by \
            the period's end. \
            Violations are those of the ledger's rules (docs/reports.md), each with the positions and event \
            ids it rests on; the rescission window and the retention policy come from --policy (printed in \
            the report). Integrity: the newest signed checkpoint at or below --as-of checked (signature, root, \
            chain hash), then every hash and link after it recomputed (from position 1 without one), alongside \
            the other sections. Reads the \
            report_facts and anomalies projections when they have folded that far (`consent-ledger project \
            run`), else folds them in a private transaction first (slower, same bytes). JSON: canonical, sealed \
            by its `sha256` member; CSV: one row per figure (\(RegulatorCSV.columns.joined(separator: ", "))); \
            HTML: one printable page with charts. With --out, FILE.sha256 holds the SHA-256 of the file's bytes.

            EXAMPLES:
              consent-ledger report regulator --log acme --jurisdiction US-TX --from 2026-07-01 --to 2026-10-01 --format html --out tx-q3.html
              consent-ledger report regulator --log acme --jurisdiction EU --from 2026-07-01 --to 2026-10-01 --policy policy.json --format json --out eu-q3.json
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: ArgumentHelp("An ISO 3166-1 or 3166-2 code (US, US-TX, GB, DE-BY) or EU.", valueName: "code"))
    var jurisdiction: String

    @Option(help: ArgumentHelp("The period's first day or instant (2026-07-01, or RFC 3339), included.", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("The period's end (2026-10-01, or RFC 3339), excluded.", valueName: "time"))
    var to: String

    @OptionGroup var options: ReportOptions

    @Option(help: "json, csv or html.")
    var format: ReportFormat = .json

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var out: String?

    func run() async throws {
        let checked = RegulatorReport.Parameters(log: log, jurisdiction: jurisdiction, from: try ReportTime.parse(from, option: "from"),
                                                 to: try ReportTime.parse(to, option: "to"), asOf: nil)
        try RegulatorReport.validate(checked)
        let policy = try options.loadPolicy()
        let bar = ProgressBar(label: "regulator report", unit: "steps")
        let result = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            var parameters = checked
            parameters.asOf = try await options.position(log: log, ledger: ledger)
            return try await ledger.regulatorReport(parameters, policy: policy,
                                              progress: { step, steps, what in
                                                  bar.update(done: Int64(step - 1), total: Int64(steps))
                                              },
                                              note: Console.note)
        }
        bar.finish()
        let integrity = result.document.integrity.passed ? "integrity checked"
            : "INTEGRITY FAILED: \(result.document.integrity.problem ?? "see the report")"
        try ReportOutput.finish(format, json: result.json, seal: result.sha256, csv: { RegulatorReport.csv(result.document) },
                                policy: policy, to: out, describing: "regulator report of log \(log), \(jurisdiction), \(from) to \(to), as of position "
                                    + "\(result.provenance.position) (chain hash \(result.provenance.headHash)); \(integrity)")
    }
}
