import HTTPTypes
import Hummingbird

/// Headers every answer carries, the API's as the console's (issue 36): `X-Content-Type-Options:
/// nosniff`, so that no browser reads an NDJSON export, a CSV report or an error as a page or a
/// script. The console adds its stricter set (``ConsoleMiddleware/securityHeaders``).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext

    static let noSniff = HTTPField.Name("X-Content-Type-Options")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // An error's answer is made here, so that it carries the header too.
            response = try error.response(from: request, context: context)
        }
        if response.headers[Self.noSniff] == nil { response.headers[Self.noSniff] = "nosniff" }
        return response
    }
}
