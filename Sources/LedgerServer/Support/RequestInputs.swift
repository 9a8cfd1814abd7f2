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

/// A request body that is one JSON object with known members (erase, App Store notifications).
enum JSONBody {
    /// The body as an object; 400 when it is not JSON, not an object, or has a member not in `members`.
    static func object(_ bytes: [UInt8], members: Set<String>, example: String) throws -> [String: JSONValue] {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw Problem(.badRequest, code: "invalid-json", detail: "the body is not JSON: \(error)", hint: "Send \(example).")
        }
        guard let object = json.objectValue else {
            throw Problem(.badRequest, code: "invalid-json", detail: "the body must be a JSON object", hint: "Send \(example).")
        }
        if let unknown = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw Problem(.badRequest, code: "unknown-field", detail: "unknown member; the body takes \(members.sorted().joined(separator: ", "))",
                          field: unknown)
        }
        return object
    }

    /// Member `name`: nil when absent or null, 400 when not a string.
    static func string(_ object: [String: JSONValue], _ name: String) throws -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw Problem(.badRequest, code: "invalid-field", detail: "\(name) must be a string", field: name)
        }
        return text
    }

    /// Member `name` as an array of strings: empty when absent or null, 400 when not an array of strings.
    static func strings(_ object: [String: JSONValue], _ name: String) throws -> [String] {
        guard let value = object[name], !value.isNull else { return [] }
        guard let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
            throw Problem(.badRequest, code: "invalid-field", detail: "\(name) must be an array of strings", field: name)
        }
        return array.compactMap(\.stringValue)
    }

    /// Member `name`, which must be present: 400 `missing-field` otherwise.
    static func requiredString(_ object: [String: JSONValue], _ name: String, hint: String? = nil) throws -> String {
        guard let text = try string(object, name) else {
            throw Problem(.badRequest, code: "missing-field", detail: "\(name) is required", field: name, hint: hint)
        }
        return text
    }
}

extension LedgerRule.Kind {
    /// The `kind` query parameter of the findings routes (the console's list and the stream): nil
    /// when absent, 400 when it is neither `violation` nor `anomaly`.
    static func query(_ text: Substring?) throws -> LedgerRule.Kind? {
        guard let text else { return nil }
        guard let kind = LedgerRule.Kind(rawValue: String(text)) else {
            throw Problem(.badRequest, code: "invalid-field", detail: "kind is violation or anomaly, not \(text)", field: "kind")
        }
        return kind
    }
}
