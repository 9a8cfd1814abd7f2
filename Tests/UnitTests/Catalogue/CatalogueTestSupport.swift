import LedgerCore
import Testing

/// Helpers for the catalogue tests: examples by type, payload edits, and the refusal a payload gets.
enum CatalogueFixtures {
    /// The documented example of `type` as an object.
    static func example(_ type: String) -> [String: JSONValue] {
        guard let schema = EventCatalogue.schema(for: type), case .object(let members) = schema.example else {
            preconditionFailure("no example for \(type)")
        }
        return members
    }

    /// The example of `type` with `key` set to `value` (removed when nil).
    static func example(_ type: String, setting key: String, to value: JSONValue?) -> JSONValue {
        var members = example(type)
        members[key] = value
        return .object(members)
    }

    /// The error `EventCatalogue.validate` throws, or nil when it accepts the payload.
    static func refusal(_ type: String, version: Int? = nil, _ payload: JSONValue) -> LedgerError? {
        let schemaVersion = version ?? EventCatalogue.schema(for: type)?.version ?? 1
        do {
            _ = try EventCatalogue.validate(type: type, schemaVersion: schemaVersion, payload: payload, context: .standard)
            return nil
        } catch {
            return error
        }
    }

    /// The accepted payload, or a recorded issue and nil.
    static func accepted(_ type: String, version: Int? = nil, _ payload: JSONValue,
                         sourceLocation: SourceLocation = #_sourceLocation) -> CataloguedPayload? {
        let schemaVersion = version ?? EventCatalogue.schema(for: type)?.version ?? 1
        do {
            return try EventCatalogue.validate(type: type, schemaVersion: schemaVersion, payload: payload, context: .standard)
        } catch {
            Issue.record("refused: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Parses JSON text written in a test.
    static func json(_ text: String) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            preconditionFailure("bad JSON in a test: \(error)")
        }
    }

    /// The paths of every field a schema describes (`topic.communication.personInformation[].handle.kind`),
    /// variant cases included.
    static func schemaPaths(_ fields: [FieldSchema], prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        for field in fields {
            let path = prefix + field.name
            paths.insert(path)
            paths.formUnion(kindPaths(field.kind, path: path))
        }
        return paths
    }

    private static func kindPaths(_ kind: FieldKind, path: String) -> Set<String> {
        switch kind {
        case .object(let fields): return schemaPaths(fields, prefix: path + ".")
        case .array(let element, _, _): return kindPaths(element, path: path + "[]")
        case .variant(let cases):
            var paths: Set<String> = []
            for variant in cases {
                paths.insert(path + "." + variant.name)
                paths.formUnion(schemaPaths(variant.fields, prefix: path + "." + variant.name + "."))
            }
            return paths
        default: return []
        }
    }

    /// The member paths present in a JSON value, in the same notation.
    static func valuePaths(_ value: JSONValue, prefix: String = "") -> Set<String> {
        switch value {
        case .object(let members):
            var paths: Set<String> = []
            for (key, member) in members {
                let path = prefix.isEmpty ? key : prefix + "." + key
                paths.insert(path)
                paths.formUnion(valuePaths(member, prefix: path))
            }
            return paths
        case .array(let elements):
            return elements.reduce(into: Set<String>()) { $0.formUnion(valuePaths($1, prefix: prefix + "[]")) }
        default:
            return []
        }
    }
}
