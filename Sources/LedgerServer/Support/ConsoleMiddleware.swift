import Foundation
import HTTPTypes
import Hummingbird
import LedgerApplication
import LedgerConsole
import LedgerCore

/// The console's one door (docs/console.md): every response under `/console` gets the security
/// headers; the session cookie, when it names an open session, becomes the request's key (so the
/// routes check roles and logs exactly as the API does, with ``LedgerRequestContext/require(_:log:)``);
/// and every error becomes an HTML page saying what went wrong and what to do.
struct ConsoleMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let operations: any LedgerOperations

    /// The session cookie's name.
    static let cookie = "consent_ledger_console"

    /// A strict policy: only the console's own script, stylesheet, and fetches; nothing inline, no
    /// frames, no plugins, forms only to the console.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.channel = .console
        var response: Response
        do {
            if let token = Self.sessionToken(request), let key = try await operations.consoleSessionKey(token: token) {
                context.key = key
                context.logger[metadataKey: "api.key"] = .string(key.keyID)
            }
            response = try await next(request, context)
        } catch {
            response = Self.errorPage(Problem(translating: error, request: request, context: context, allowed: nil), context: context)
        }
        for (name, value) in Self.securityHeaders where response.headers[name] == nil { response.headers[name] = value }
        return response
    }

    static let securityHeaders: [(HTTPField.Name, String)] = [
        (.contentSecurityPolicy, contentSecurityPolicy),
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
        (HTTPField.Name("Cross-Origin-Opener-Policy")!, "same-origin"),
        (HTTPField.Name("Cross-Origin-Resource-Policy")!, "same-origin"),
        (HTTPField.Name("Permissions-Policy")!, "camera=(), microphone=(), geolocation=(), payment=()"),
        (.cacheControl, "no-store"),
    ]

    /// The session token in the request's cookie, if any.
    static func sessionToken(_ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookie { return String(parts[1]) }
            }
        }
        return nil
    }

    /// The problem as a console page (HTML), with the status the API would answer.
    static func errorPage(_ problem: Problem, context: Context) -> Response {
        let title: String
        switch problem.status {
        case .unauthorized: title = "Sign in first"
        case .forbidden: title = "Not allowed"
        case .notFound: title = "Not found"
        case .badRequest: title = "That request cannot be answered"
        default: title = "Something went wrong"
        }
        let page = ErrorPage.render(status: problem.status.code, title: title, detail: problem.detail, hint: problem.hint, key: context.key)
        var headers = problem.headers
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
}
