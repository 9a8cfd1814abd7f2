import HTTPTypes
import Hummingbird
import LedgerCore
import LedgerApplication
import Logging

/// Authenticates `Authorization: Bearer <key>` (``LedgerOperations/authenticate(token:)``): 401 (with
/// `WWW-Authenticate`) when the key is missing, malformed, unknown or revoked. Authorization (the
/// key's log and role) is each route's, through ``LedgerRequestContext/require(_:log:)``.
/// With `optional` (the verifiable log's routes under `serve --public-proofs`) a request without
/// an `Authorization` header goes on with no key; one that sends a key is still checked.
/// Every refusal is a `notice` line in `logger`: why (`api.key.refused`: missing, malformed,
/// unknown), the key id when the token has the shape of a key, the path and the client; never the
/// token's secret (decision 0055). A client that offered too many refused keys within a minute is
/// answered 429 before its key is looked up (``RefusedKeyBudget``); a request with no key at all
/// costs no lookup and is not counted.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let operations: any LedgerOperations
    var optional = false
    /// Each client's refused keys this minute.
    let budget: RefusedKeyBudget
    /// Where refusals are logged.
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if optional, request.headers[.authorization] == nil { return try await next(request, context) }
        // Not logged: the refusals that used the budget were, one line each.
        try budget.check(context.remoteAddress)
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            refused("missing", keyID: nil, request: request, context: context)
            throw Self.unauthorized("no API key: send it as Authorization: Bearer <key>")
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let key = try await operations.authenticate(token: token) else {
            let keyID = Self.keyID(of: token)
            refused(keyID == nil ? "malformed" : "unknown", keyID: keyID, request: request, context: context)
            budget.refused(context.remoteAddress)
            throw Self.unauthorized("the API key is not valid (unknown, malformed or revoked)")
        }
        var context = context
        context.key = key
        context.logger[metadataKey: "api.key"] = .string(key.keyID)
        return try await next(request, context)
    }

    /// Logs one refused token: why, the key id it names (nil when it has not the shape of a key),
    /// where and from whom; never the token.
    func refused(_ reason: String, keyID: String?, request: Request, context: Context) {
        var metadata: Logger.Metadata = ["api.key.refused": .string(reason), "http.method": .string(request.method.rawValue),
                                         "http.path": .string(request.uri.path), "hb.request.id": .string(context.id)]
        if let keyID { metadata["api.key"] = .string(keyID) }
        if let address = context.remoteAddress { metadata["client"] = .string(address) }
        logger.notice("API key refused", metadata: metadata)
    }

    /// The key id of a token shaped like a key (`cl_` + 12 letters or digits + `_` + a secret), or nil.
    static func keyID(of token: String) -> String? {
        let parts = token.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "cl", parts[1].count == 12, !parts[2].isEmpty,
              parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return String(parts[1])
    }

    static func unauthorized(_ detail: String) -> Problem {
        var problem = Problem(.unauthorized, code: "unauthorized", detail: detail,
                              hint: "Ask the ledger's operator for a key (consent-ledger keys create --log L --role R).")
        problem.headers[.wwwAuthenticate] = "Bearer realm=\"consent-ledger\""
        return problem
    }
}

extension LedgerRequestContext {
    /// The authenticated key, if it is bound to `log` and its role is one of `roles`; 403 otherwise.
    func require(_ roles: Set<APIRole>, log: String) throws -> APIKey {
        guard let key else { throw APIKeyMiddleware.unauthorized("no API key") }
        guard key.log == log else {
            throw Problem(.forbidden, code: "forbidden", detail: "this API key belongs to another log",
                          hint: "Use a key issued for log \(log).")
        }
        guard roles.contains(key.role) else {
            let allowed = roles.map(\.rawValue).sorted().joined(separator: " or ")
            throw Problem(.forbidden, code: "forbidden", detail: "an \(key.role.rawValue) key may not do this; it needs the \(allowed) role")
        }
        return key
    }
}
