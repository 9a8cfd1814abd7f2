import LedgerCore
import LedgerReportModel
/// Renders a sealed JSON report (the consent register, a subject dossier or the regulator report,
/// exactly as `consent-ledger report … --format json` writes it) as one self-contained HTML5 page:
/// inline CSS, charts as inline SVG, no scripts, fonts or other files fetched, printable on A4 and
/// US Letter alike (decision 0014).
///
/// The page is a pure function of the report: the same JSON gives the same bytes (no time of
/// rendering, stable order, numbers always written the same way). Every value from the report is
/// HTML-escaped. The page states the JSON's `sha256` and how to check it, and warns when that seal
/// does not match the JSON it was rendered from; it cannot carry its own hash, which the command
/// that writes it prints and saves as `FILE.sha256`.
///
/// ```swift
/// let report = try JSONParser.parse(bytes)          // a sealed report
/// let page = try ReportHTML.render(report)          // "<!DOCTYPE html>…"
/// ```
public enum ReportHTML {
    /// The report kinds it renders: the values of a report's `report` member.
    public static let kinds = ["consent-register", "subject-dossier", "regulator"]

    /// The HTML page of `report`.
    ///
    /// - Throws: ``LedgerError`` `invalid-field` when `report` is not a JSON object or its `report`
    ///   member names no kind in ``kinds``; `missing-field` or `invalid-field` naming the member
    ///   (`consent.outcomesByWeek[2].sent`) when one the schema requires is absent or of the wrong type.
    /// `policy` names who issues the page and when (its `issuer` and `dateOfIssue`).
    public static func render(_ report: JSONValue, policy: ReportPolicy = .defaults) throws -> String {
        guard case .object = report else {
            throw LedgerError(.invalidField, "a report must be a JSON object, found \(ReportDecoding.describe(report))",
                              hint: "Render the JSON that `consent-ledger report … --format json` wrote.")
        }
        guard let kindValue = report["report"] else {
            throw LedgerError(.missingField, "the JSON has no member report, so it is not a ConsentLedger report", field: "report",
                              hint: "A report names its kind in the member report: \(kinds.joined(separator: ", ")).")
        }
        guard let kind = kindValue.stringValue, kinds.contains(kind) else {
            let found = kindValue.stringValue.map { "\"\($0)\"" } ?? ReportDecoding.describe(kindValue)
            throw LedgerError(.invalidField, "unknown report kind \(found): the HTML renderer knows \(kinds.joined(separator: ", "))",
                              field: "report")
        }
        switch kind {
        case ConsentRegisterDocument.kind:
            return try ConsentRegisterHTML.render(ReportDecoding.decode(ConsentRegisterDocument.self, from: report, reportName: "consent register"),
                                                  sealMatches: ReportSeal.verify(report), policy: policy)
        case SubjectDossierDocument.kind:
            return try SubjectDossierHTML.render(ReportDecoding.decode(SubjectDossierDocument.self, from: OlderReports.upgraded(report),
                                                                       reportName: "subject dossier"),
                                                 sealMatches: ReportSeal.verify(report), policy: policy)
        default:
            return try RegulatorHTML.render(ReportDecoding.decode(RegulatorDocument.self, from: OlderReports.upgraded(report),
                                                                  reportName: "regulator report"),
                                            sealMatches: ReportSeal.verify(report), policy: policy)
        }
    }

    /// The HTML page of the sealed JSON report in `bytes`.
    ///
    /// - Throws: ``LedgerError`` `invalid-json` when the bytes are not JSON, else as ``render(_:)``.
    public static func render(json bytes: [UInt8], policy: ReportPolicy = .defaults) throws -> String {
        let report: JSONValue
        do {
            report = try JSONParser.parse(bytes)
        } catch {
            throw LedgerError(.invalidJSON, "the report is not valid JSON: \(error)")
        }
        return try render(report, policy: policy)
    }
}
