import Hummingbird
import LedgerCore

extension LedgerRequestContext {
    /// The path parameter `name`, percent-decoded (`f%75zz` is `fuzz`), refusing a NUL character.
    func path(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        let value = raw.removingPercentEncoding ?? raw
        guard !value.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw Problem(.badRequest, code: "invalid-request", detail: "the \(name) in the path holds a NUL character", field: name)
        }
        return value
    }
}

/// Refuses a query parameter holding a NUL character before any route sees it: PostgreSQL text
/// cannot hold one, and a streamed answer would fail after its status line had gone out.
struct QuerySanityMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        for (name, value) in request.uri.queryParameters where value.unicodeScalars.contains(where: { $0.value == 0 }) {
            throw Problem(.badRequest, code: "invalid-request", detail: "the query parameter \(name) holds a NUL character",
                          field: String(name), hint: "Remove it: no identifier or value of the ledger contains one.")
        }
        return try await next(request, context)
    }
}
