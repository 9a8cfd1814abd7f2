import Foundation
import HTTPTypes
import Hummingbird
import LedgerApplication
import LedgerCore
import LedgerReportHTML
import LedgerReportModel
import NIOCore

/// The three reports (auditor and admin keys), each as `?format=json|csv|html`:
/// `GET /v1/logs/{log}/reports/consent-register`, `GET /v1/logs/{log}/reports/regulator` and
/// `GET /v1/logs/{log}/subjects/{subject}/dossier` (the subject's timeline, the state after each
/// event, and each event's inclusion proof). The regulator report applies `policy`, and every HTML
/// page names its issuer and date of issue. Each is computed and rendered holding one of its log's
/// report slots (``ReportAdmission``).
struct ReportRoutes {
    let operations: any LedgerOperations
    let policy: ReportPolicy
    /// Each log's reports under way, shared by the API and the console.
    let admission: ReportAdmission

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("logs/{log}/reports/consent-register", use: consentRegister)
        routes.get("logs/{log}/reports/regulator", use: regulator)
        routes.get("logs/{log}/subjects/{subject}/dossier", use: dossier)
        return routes
    }

    @Sendable func consentRegister(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        let parameters = ConsentRegisterReport.Parameters(
            log: log, asOf: try EventRoutes.integer(query["asOf"], name: "asOf", minimum: 0),
            from: try Self.time(query["from"], name: "from"), to: try Self.time(query["to"], name: "to"),
            subject: query["subject"].map(String.init), dateOfIssue: policy.dateOfIssue)
        let format = try Self.format(query["format"])
        // The whole register is a read of every subject's data (issue 36, finding 5).
        try await context.recordRead(request, operations: operations, log: log, what: "consent-register",
                                     subject: parameters.subject ?? ReadAccess.everySubject,
                                     detail: "as of \(parameters.asOf.map(String.init) ?? "the head"), \(format.rawValue)")
        return try await admission.run(log: log) {
            let result = try await operations.consentRegister(parameters)
            return try response(format, json: result.json, seal: result.sha256) { ConsentRegisterReport.csv(result.rows) }
        }
    }

    @Sendable func regulator(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        guard let jurisdiction = query["jurisdiction"], let from = try Self.time(query["from"], name: "from"),
              let to = try Self.time(query["to"], name: "to") else {
            throw Problem(.badRequest, code: "missing-field", detail: "the regulator report needs jurisdiction, from and to",
                          hint: "For example ?jurisdiction=US-TX&from=2026-07-01&to=2026-10-01")
        }
        let parameters = RegulatorReport.Parameters(log: log, jurisdiction: String(jurisdiction), from: from, to: to,
                                                    asOf: try EventRoutes.integer(query["asOf"], name: "asOf", minimum: 0))
        let format = try Self.format(query["format"])
        return try await admission.run(log: log) {
            let result = try await operations.regulatorReport(parameters, policy: policy)
            return try response(format, json: result.json, seal: result.sha256) { RegulatorReport.csv(result.document) }
        }
    }

    @Sendable func dossier(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let subject = try context.path("subject")
        _ = try context.require([.auditor, .admin], log: log)
        let query = request.uri.queryParameters
        let format = try Self.format(query["format"])
        let asOf = try EventRoutes.integer(query["asOf"], name: "asOf", minimum: 0)
        try await context.recordRead(request, operations: operations, log: log, what: "dossier", subject: subject,
                                     detail: "as of \(asOf.map(String.init) ?? "the head"), \(format.rawValue)")
        return try await admission.run(log: log) {
            let result = try await operations.dossier(log: log, subject: subject, asOf: asOf, dateOfIssue: policy.dateOfIssue)
            return try response(format, json: result.json, seal: result.sha256) { SubjectDossierReport.csv(result.steps) }
        }
    }

    /// The report in `format`, with `Report-Seal` naming the sealed JSON's SHA-256 in every format.
    /// An HTML page (one inline style element, no script) gets a Content-Security-Policy that allows
    /// exactly that style, by its hash, and nothing else.
    func response(_ format: ReportEncoding, json: [UInt8], seal: String, csv: () -> String) throws -> Response {
        let bytes = try format.bytes(json: json, csv: csv, policy: policy)
        var response = Response(status: .ok, headers: [.contentType: format.contentType, .reportSeal: seal],
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        if format == .html {
            let page = String(decoding: bytes, as: UTF8.self)
            if let start = page.range(of: "<style>"), let end = page.range(of: "</style>", range: start.upperBound..<page.endIndex) {
                let digest = Data(LedgerHash.sha256(Array(page[start.upperBound..<end.lowerBound].utf8))).base64EncodedString()
                response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'sha256-\(digest)'; img-src 'self'; "
                    + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
            }
        }
        return response
    }

    static func format(_ text: Substring?) throws -> ReportEncoding {
        guard let format = ReportEncoding(rawValue: text.map(String.init) ?? "json") else {
            throw Problem(.badRequest, code: "invalid-field", detail: "format must be json, csv or html, not \(text ?? "")", field: "format")
        }
        return format
    }

    /// A day (`2026-07-01`, midnight UTC) or an RFC 3339 time; nil when absent.
    static func time(_ text: Substring?, name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = AsOf.dayOrTime(String(text)) else {
            throw Problem(.badRequest, code: "invalid-field", detail: "\(name) \(text) is neither a day such as 2026-07-01 nor an RFC 3339 time",
                          field: name)
        }
        return date
    }
}

extension HTTPField.Name {
    /// The SHA-256 seal of the JSON report a response shows (in every format).
    static let reportSeal = HTTPField.Name("Report-Seal")!
}
