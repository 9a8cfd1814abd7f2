import Foundation
import HTTPTypes
import Hummingbird
import LedgerAPIModel
import LedgerCore
import NIOCore

/// An error as RFC 9457 `application/problem+json`: what went wrong (`title`, `detail`), where
/// (`field`, `line`: the 1-based event of a batch), and what to do (`hint`).
///
/// ```json
/// {"type":"https://consent-ledger.dev/problems/invalid-field","title":"Bad Request","status":400,
///  "detail":"…","field":"payload.lowerBound","line":2,"hint":"…"}
/// ```
public struct Problem: HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable code (a ``LedgerError/Code`` or an HTTP-level one such as `unauthorized`).
    public var code: String
    /// What went wrong, for a person.
    public var detail: String
    /// The JSON path of the field at fault, if any.
    public var field: String?
    /// The 1-based event of the batch at fault, if any.
    public var line: Int?
    /// What to do about it.
    public var hint: String?
    /// Extra headers (`WWW-Authenticate`, `Retry-After`).
    public var headers: HTTPFields = [:]

    /// A problem from its parts.
    public init(_ status: HTTPResponse.Status, code: String, detail: String, field: String? = nil, line: Int? = nil, hint: String? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field
        self.line = line
        self.hint = hint
    }

    /// The problem for a ledger error, with the status its code calls for.
    public init(_ error: LedgerError) {
        self.init(Self.status(for: error.code), code: error.code.rawValue, detail: error.message, field: error.field, line: error.line,
                  hint: Self.hint(for: error))
        if error.code.kind == .unavailable { headers[.retryAfter] = String(Self.retryAfterSeconds) }
    }

    /// The hint a client is shown. A missing log's hint names the logs the database holds, which is
    /// for its operator at the command line: an HTTP client, whose key is one tenant's (or none, on a
    /// public server), is told what to do without learning any other tenant's log id (issue 36).
    static func hint(for error: LedgerError) -> String? {
        guard error.code == .logNotFound else { return error.hint }
        return "The log has no events yet (the first append creates it), or its name in the URL is not your key's log."
    }

    /// The HTTP status of each kind of ledger error (every code declares its kind; there is no
    /// default).
    static func status(for code: LedgerError.Code) -> HTTPResponse.Status {
        switch code.kind {
        case .badInput: return .badRequest
        case .forbidden: return .forbidden
        case .conflict: return .conflict
        case .notFound: return .notFound
        case .tooLarge: return .contentTooLarge
        case .unavailable: return .serviceUnavailable
        case .serverFault: return .internalServerError
        }
    }

    /// Seconds a client should wait before retrying a request refused because the database is
    /// unavailable: about how long a restart or a failover takes to show.
    static let retryAfterSeconds = 2

    /// The problem document.
    public var document: APIModel.ProblemDocument {
        APIModel.ProblemDocument(code: code, title: status.reasonPhrase, status: status.code, detail: detail, field: field, line: line, hint: hint)
    }

    /// The problem as `application/problem+json`, with its extra headers.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try Response.json(document, status: status)
        response.headers[.contentType] = "application/problem+json"
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}

/// Turns every error a route throws into a problem document, so no error leaves as plain text.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext
    /// The routes' methods: a path the server has, asked with another method, is a 405.
    var allowed: AllowedMethods? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw Problem(translating: error, request: request, context: context, allowed: allowed)
        }
    }
}

extension Problem {
    /// The problem any error a route throws stands for: the one translation of errors into HTTP
    /// answers, shared by the API (``ProblemMiddleware``, as JSON) and the console (as a page).
    init(translating error: any Error, request: Request, context: LedgerRequestContext, allowed: AllowedMethods?) {
        switch error {
        case let problem as Problem:
            self = problem
        case let error as LedgerError:
            self.init(error)
        case let error as NIOTooManyBytesError:
            // A body sent without Content-Length (chunked) that outgrew a route's limit while read.
            self.init(.contentTooLarge, code: "body-too-large",
                      detail: "the body is over \(error.maxBytes.map { "the limit of \($0) bytes" } ?? "the limit") for \(request.uri.path)",
                      hint: "Send a smaller body (fewer events per request).")
        case let error as HTTPError:
            if error.status == .notFound, let methods = allowed?.methods(for: request.uri.path), !methods.isEmpty {
                self.init(.methodNotAllowed, code: "method-not-allowed",
                          detail: "\(request.uri.path) does not take \(request.method.rawValue); it takes \(methods.joined(separator: ", "))",
                          hint: "See docs/http-api.md for what each route takes.")
                headers[.allow] = methods.joined(separator: ", ")
                return
            }
            // Hummingbird's own (a body over the limit, a route that does not exist, …).
            let code = error.status == .contentTooLarge ? "body-too-large" : (error.status == .notFound ? "not-found" : "http-error")
            self.init(error.status, code: code, detail: error.body ?? error.status.reasonPhrase,
                      hint: error.status == .notFound ? "The routes are under /v1 (docs/http-api.md), the console's pages under /console." : nil)
        default:
            context.logger.error("request failed: \(String(reflecting: error))")
            self.init(.internalServerError, code: "internal-error", detail: "the server failed to answer this request",
                      hint: "Try again; if it persists, the server's log names the cause (request id \(context.id)).")
        }
    }
}

extension Response {
    /// A JSON response from a typed body (RFC 8785 canonical, so the same answer is the same bytes).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: try CanonicalJSON.encode(encodable: value) + [0x0A])))
    }
}
