import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// docs/openapi.json against the server: the same routes, and real responses that validate
/// against the document's schemas.
@Suite("The OpenAPI contract")
struct OpenAPIContractTests {
    static func document() throws -> JSONValue {
        let url = try JSONSchemaValidator.packageRoot().appendingPathComponent("docs/openapi.json")
        return try JSONParser.parse(Array(try Data(contentsOf: url)))
    }

    /// A validator over the document's `components.schemas` (its `$ref`s pointed at `$defs`).
    static func validator(_ document: JSONValue) throws -> JSONSchemaValidator {
        func rewrite(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let members):
                return .object(members.mapValues { member in
                    if case .string(let text) = member, text.hasPrefix("#/components/schemas/") {
                        return .string("#/$defs/" + text.dropFirst("#/components/schemas/".count))
                    }
                    return rewrite(member)
                })
            case .array(let elements): return .array(elements.map(rewrite))
            default: return value
            }
        }
        return try JSONSchemaValidator(schema: ["$defs": rewrite(document["components"]?["schemas"] ?? [:])], source: "docs/openapi.json")
    }

    /// The schema a response of `path`/`method`/`status` with `type` names, as a `#/$defs/…` pointer.
    static func schemaPointer(_ document: JSONValue, _ path: String, _ method: String, _ status: String, _ type: String) -> String? {
        let schema = document["paths"]?[path]?[method]?["responses"]?[status]?["content"]?[type]?["schema"]
        return schema?["$ref"]?.stringValue.map { "#/$defs/" + $0.dropFirst("#/components/schemas/".count) }
    }

    @Test("every member a schema requires is one it describes (a generator drops the others silently)")
    func requiredMembersAreDescribed() throws {
        var undescribed: [String] = []
        func walk(_ value: JSONValue, at path: String) {
            switch value {
            case .object(let members):
                if let required = members["required"]?.arrayValue, let properties = members["properties"]?.objectValue {
                    for name in required.compactMap(\.stringValue) where properties[name] == nil { undescribed.append("\(path)/\(name)") }
                }
                for (key, member) in members { walk(member, at: path + "/" + key) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, at: path + "/\(index)") }
            default: break
            }
        }
        walk(try Self.document(), at: "#")
        #expect(undescribed.isEmpty, "required but not in properties: \(undescribed)")
    }

    @Test("every route the server answers is in the document, and nothing else")
    func sameRoutes() async throws {
        let document = try Self.document()
        let fixture = try await ServerFixture.make()
        let routes = try await fixture.db.as(.application) { client in
            LedgerAPI(ledger: Ledger(pools: RolePools(application: client, auditor: client, administrator: client))).router().routes
                .map { "\($0.method.rawValue) \($0.path.description)" }
                // A tile's index spans path segments: the router matches it with a catch-all, the
                // document (whose path parameters cannot hold '/') names it {index}.
                .map { $0.hasSuffix("/**") ? String($0.dropLast(2)) + "{index}" : $0 }
                // The console's pages are for browsers, not the API the document describes (docs/console.md).
                .filter { !$0.split(separator: " ")[1].hasPrefix("/console") }
        }
        var documented: [String] = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in (item.objectValue ?? [:]).keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                documented.append("\(method.uppercased()) \(path)")
            }
        }
        // /metrics is served only when serve bootstraps metrics; it is documented too.
        #expect(Set(routes).union(["GET /metrics"]) == Set(documented), "code: \(routes.sorted()); document: \(documented.sorted())")
    }

    @Test("real responses validate against the document: an append, problems of each kind, health")
    func responsesValidate() async throws {
        let document = try Self.document()
        let validator = try Self.validator(document)
        let fixture = try await ServerFixture.make()
        let events = "/v1/logs/{log}/events"
        try await fixture.test { client in
            let appended = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"), body: ndjson(2))
            let appendSchema = try #require(Self.schemaPointer(document, events, "post", "201", "application/json"))
            #expect(try validator.violations(of: try #require(appended.json), against: appendSchema) == [])
            for (response, status) in [
                (try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: fixture.headers(nil)), "401"),
                (try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: fixture.headers("ingest")), "403"),
                (try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                          body: ByteBuffer(string: "{")), "400"),
            ] {
                let method = response.status == .badRequest ? "post" : "get"
                let pointer = try #require(Self.schemaPointer(document, events, method, status, "application/problem+json"), "\(method) \(status)")
                #expect(try validator.violations(of: try #require(response.json), against: pointer) == [], "\(status): \(response.text)")
            }
            let health = try await client.execute(uri: "/health", method: .get)
            if let pointer = Self.schemaPointer(document, "/health", "get", "200", "application/json") {
                #expect(try validator.violations(of: try #require(health.json), against: pointer) == [])
            }
        }
    }
}
