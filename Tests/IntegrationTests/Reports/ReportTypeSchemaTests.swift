import Foundation
import LedgerCore
import LedgerReportModel
import Testing

/// Each report's type (Sources/LedgerReportModel) against its published JSON Schema
/// (docs/reports/*.schema.json), as the OpenAPI contract test holds the HTTP bodies to
/// docs/openapi.json: the same members in every object, the same ones required, the same ones
/// nullable, and the same JSON type for every scalar. A member renamed, added or dropped in the
/// type and not in the schema (or the other way round) fails here.
@Suite("Report types against their schemas")
struct ReportTypeSchemaTests {
    @Test("the consent register's type is its schema")
    func consentRegister() throws {
        let schema = try JSONSchemaValidator(schemaFile: "consent-register").root
        let differences = Self.differences(try ReportShape.of(ConsentRegisterDocument.self), schema: schema)
        #expect(differences == [], "\(differences)")
    }

    @Test("the subject dossier's type is its schema")
    func subjectDossier() throws {
        let schema = try JSONSchemaValidator(schemaFile: "subject-dossier").root
        let differences = Self.differences(try ReportShape.of(SubjectDossierDocument.self), schema: schema)
        #expect(differences == [], "\(differences)")
    }

    @Test("the regulator report's type is its schema")
    func regulator() throws {
        let schema = try JSONSchemaValidator(schemaFile: "regulator").root
        let differences = Self.differences(try ReportShape.of(RegulatorDocument.self), schema: schema)
        #expect(differences == [], "\(differences)")
    }

    @Test("the comparison bites: a member renamed, one left out, a wrong scalar, a nullable one not null")
    func comparisonBites() throws {
        let schema = try JSONSchemaValidator(schemaFile: "consent-register").root
        let row = try #require(schema["$defs"]?["row"])
        struct Renamed: Decodable { var kind: String; var identifier: String }
        let renamed = Self.differences(try ReportShape.of(Renamed.self), schema: row, root: schema)
        #expect(renamed.contains("$: members only in the type: identifier"))
        #expect(renamed.contains { $0.hasPrefix("$: members only in the schema: answer, answerChannel") })
        struct Wrong: Decodable { var checkpoint: Int; var headHash: String?; var log: String; var position: String }
        let ledger = try #require(schema["properties"]?["ledger"])
        #expect(Self.differences(try ReportShape.of(Wrong.self), schema: ledger, root: schema) == [
            "$.checkpoint: the schema allows null, the type does not",
            "$.checkpoint: the schema has object, the type integer",
            "$.headHash: the type allows null, the schema does not",
            "$: the schema requires headHash, the type may leave it out",
            "$.position: the schema has integer, the type string",
        ])
    }

    @Test("a oneOf of null and one object is that object, nullable: followed into, and its nullability compared")
    func nullOrObject() throws {
        let schema = try JSONParser.parse(Array("""
            {"type": "object", "required": ["state"], "properties": {"state": {"oneOf": [{"type": "null"},
             {"type": "object", "required": ["erased"], "properties": {"erased": {"type": "boolean"}}}]}}}
            """.utf8))
        struct State: Codable, Sendable, Equatable { var erased: Bool }
        struct NullOrState: Decodable { @Nullable var state: State? }
        struct NotNull: Decodable { var state: State }
        struct Renamed: Decodable { struct Other: Codable, Sendable, Equatable { var wiped: Bool }; @Nullable var state: Other? }
        #expect(Self.differences(try ReportShape.of(NullOrState.self), schema: schema, root: schema) == [])
        #expect(Self.differences(try ReportShape.of(NotNull.self), schema: schema, root: schema) == ["$.state: the schema allows null, the type does not"])
        #expect(Self.differences(try ReportShape.of(Renamed.self), schema: schema, root: schema) == [
            "$.state: members only in the type: wiped", "$.state: members only in the schema: erased",
        ])
    }

    /// How `shape` and `schema` (a node of the schema `root`) differ, each as `path: what`. The
    /// document's `sha256` is absent until the report is sealed, and always present after.
    static func differences(_ shape: ReportShape, schema: JSONValue, root: JSONValue? = nil) -> [String] {
        var found: [String] = []
        compare(shape, nullable: false, schema, root: root ?? schema, path: "$", sealed: root == nil, into: &found)
        return found
    }

    private static func compare(_ shape: ReportShape, nullable: Bool, _ node: JSONValue, root: JSONValue, path: String, sealed: Bool,
                                into found: inout [String]) {
        let schema = resolved(node, root: root)
        // `null` or one other thing (the dossier's state, the oldest pending question): that thing, nullable.
        if let alternatives = schema["oneOf"]?.arrayValue, alternatives.count == 2,
           let null = alternatives.firstIndex(where: { typeNames($0) == ["null"] }) {
            if !nullable { found.append("\(path): the schema allows null, the type does not") }
            compare(shape, nullable: false, alternatives[1 - null], root: root, path: path, sealed: sealed, into: &found)
            return
        }
        if schema["oneOf"] != nil || schema["anyOf"] != nil {
            found.append("\(path): the schema has alternatives, which this comparison does not follow")
            return
        }
        var types = typeNames(schema)
        if types.remove("null") != nil {
            if !nullable { found.append("\(path): the schema allows null, the type does not") }
        } else if nullable {
            found.append("\(path): the type allows null, the schema does not")
        }
        switch shape {
        case .any:
            return
        case .scalar(let name):
            if types != [name] { found.append("\(path): the schema has \(types.sorted().joined(separator: " or ")), the type \(name)") }
        case .array(let element):
            guard types == ["array"], let items = schema["items"] else {
                found.append("\(path): the schema has \(types.sorted().joined(separator: " or ")), the type an array")
                return
            }
            compare(element.shape, nullable: element.nullable, items, root: root, path: path + "[]", sealed: false, into: &found)
        case .object(let members):
            guard types == ["object"] else {
                found.append("\(path): the schema has \(types.sorted().joined(separator: " or ")), the type object")
                return
            }
            let properties = schema["properties"]?.objectValue ?? [:]
            let onlyInType = Set(members.keys).subtracting(properties.keys).sorted()
            let onlyInSchema = Set(properties.keys).subtracting(members.keys).sorted()
            if !onlyInType.isEmpty { found.append("\(path): members only in the type: \(onlyInType.joined(separator: ", "))") }
            if !onlyInSchema.isEmpty { found.append("\(path): members only in the schema: \(onlyInSchema.joined(separator: ", "))") }
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                guard let property = properties[name] else { continue }
                // The seal is absent (nil) until the report is sealed, and a string after.
                let seal = sealed && name == ReportSeal.member
                compare(member.shape, nullable: member.nullable && !seal, property, root: root, path: path + "." + name, sealed: false,
                        into: &found)
                let optional = member.optional && !seal
                if required.contains(name) && optional {
                    found.append("\(path): the schema requires \(name), the type may leave it out")
                } else if !required.contains(name) && !optional {
                    found.append("\(path): the type requires \(name), the schema does not")
                }
            }
        }
    }

    /// `node` with its `$ref` (`#/$defs/<name>`) followed; its own keywords win.
    private static func resolved(_ node: JSONValue, root: JSONValue) -> JSONValue {
        guard let reference = node["$ref"]?.stringValue, reference.hasPrefix("#/$defs/"),
              case .object(let target)? = root["$defs"]?[String(reference.dropFirst("#/$defs/".count))],
              case .object(var members) = node else { return node }
        members.removeValue(forKey: "$ref")
        return .object(target.merging(members) { _, own in own })
    }

    /// The JSON types a schema node admits, from `type`, else from its `const` or `enum` values.
    private static func typeNames(_ schema: JSONValue) -> Set<String> {
        switch schema["type"] {
        case .string(let name)?: return [name]
        case .array(let names)?: return Set(names.compactMap(\.stringValue))
        default: break
        }
        let values = schema["const"].map { [$0] } ?? schema["enum"]?.arrayValue ?? []
        return Set(values.map { value in
            switch value {
            case .null: return "null"
            case .bool: return "boolean"
            case .number(let number): return number == number.rounded() ? "integer" : "number"
            case .string: return "string"
            case .array: return "array"
            case .object: return "object"
            }
        })
    }
}
