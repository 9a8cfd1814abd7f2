import LedgerCore

/// Indented JSON for documentation: members sorted as in RFC 8785, two spaces per level, arrays
/// of scalars on one line. Scalars are written exactly as ``CanonicalJSON`` writes them, so the
/// text parses back to the same value. Deterministic.
enum PrettyJSON {
    static func render(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members) where members.isEmpty:
            return "{}"
        case .object(let members):
            let keys = members.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
            let lines = keys.map { inner + CanonicalJSON.encodeString(.string($0)) + ": " + render(members[$0]!, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let elements) where elements.isEmpty:
            return "[]"
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            return "[" + elements.map { CanonicalJSON.encodeString($0) }.joined(separator: ", ") + "]"
        case .array(let elements):
            return "[\n" + elements.map { inner + render($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return CanonicalJSON.encodeString(value)
        }
    }
}

extension JSONValue {
    /// Not an object or array.
    var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }
}
