import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

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
            RFC 4180, its SHA-256 printed on standard error. With --out, FILE.sha256 holds the SHA-256 of the file's bytes.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(name: .customLong("as-of"), help: ArgumentHelp("The log position to compute the report at (default: the head).", valueName: "position"))
    var asOf: Int64?

    @Option(help: ArgumentHelp("Only items asked at or after this time (RFC 3339).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Only items asked before this time (RFC 3339).", valueName: "time"))
    var to: String?

    @Option(help: "Only this subject's items.")
    var subject: String?

    @Option(help: "json or csv.")
    var format: ReportFormat = .json

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var out: String?

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case json, csv }

    func run() async throws {
        func time(_ text: String?, _ name: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = AsOf.date(text) else {
                throw ValidationError("--\(name) \(text) is not an RFC 3339 time such as 2026-10-01T00:00:00Z")
            }
            return date
        }
        let parameters = ConsentRegisterReport.Parameters(log: log, asOf: asOf, from: try time(from, "from"),
                                                          to: try time(to, "to"), subject: subject)
        let result = try await LedgerDatabase.with(try database.target(), role: .auditor, progress: Console.note) { client in
            try await ConsentRegisterReport.compute(parameters, client: client)
        }
        let digest = try ReportOutput.write(
            format == .json ? result.json + [0x0A] : Array(ConsentRegisterReport.csv(result.rows).utf8),
            sealedAs: format == .json ? result.sha256 : nil, to: out)
        Console.note("consent register of log \(log) as of position \(result.provenance.position) (chain hash \(result.provenance.headHash)): "
                     + "\(result.rows.count) row\(result.rows.count == 1 ? "" : "s"); sha256 \(digest)\(format == .json ? " (of the report without its sha256 member)" : "")")
    }
}
