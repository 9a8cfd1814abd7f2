extension JSONValue {
    /// The value with the member at `path` (object member names, outermost first) replaced by
    /// `transform(old)`; unchanged when the path does not lead to a value. A segment `name[]`
    /// means every element of the array `name`.
    public func updating(path: ArraySlice<String>, _ transform: (JSONValue) throws(LedgerError) -> JSONValue) throws(LedgerError) -> JSONValue {
        guard let head = path.first, case .object(var members) = self else { return self }
        let eachElement = head.hasSuffix("[]")
        let name = eachElement ? String(head.dropLast(2)) : head
        guard let child = members[name] else { return self }
        let rest = path.dropFirst()
        func apply(_ value: JSONValue) throws(LedgerError) -> JSONValue {
            rest.isEmpty ? try transform(value) : try value.updating(path: rest, transform)
        }
        if eachElement {
            guard case .array(let elements) = child else { return self }
            var updated: [JSONValue] = []
            for element in elements { updated.append(try apply(element)) }
            members[name] = .array(updated)
        } else {
            members[name] = try apply(child)
        }
        return .object(members)
    }

    /// `path` with array indices written as `[]` (`payload.a[3].b` → `payload.a[].b`): the form
    /// the catalogue names personal fields in.
    public static func genericPath(_ path: String) -> String {
        var out = ""
        var inIndex = false
        for character in path {
            if character == "[" { inIndex = true; out.append("[]"); continue }
            if character == "]" { inIndex = false; continue }
            if !inIndex { out.append(character) }
        }
        return out
    }

    /// Whether any value at any depth (this one included) makes `match` true: ``paths(where:prefix:)``
    /// without building paths, for checks that almost never match.
    public func contains(where match: (JSONValue) -> Bool) -> Bool {
        if match(self) { return true }
        switch self {
        case .object(let members): return members.values.contains { $0.contains(where: match) }
        case .array(let elements): return elements.contains { $0.contains(where: match) }
        default: return false
        }
    }

    /// Every value at any depth for which `match` is true, with its dotted path (`[i]` for array
    /// elements); matched values are not searched inside.
    public func paths(where match: (JSONValue) -> Bool, prefix: String = "") -> [(path: String, value: JSONValue)] {
        if match(self) { return [(prefix, self)] }
        switch self {
        case .object(let members):
            return members.keys.sorted().flatMap { key in
                members[key]!.paths(where: match, prefix: prefix.isEmpty ? key : prefix + "." + key)
            }
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in element.paths(where: match, prefix: "\(prefix)[\(index)]") }
        default:
            return []
        }
    }

    /// The value with every value for which `match` is true replaced by `transform(path, value)`.
    public func replacing(where match: (JSONValue) -> Bool, prefix: String = "",
                          _ transform: (String, JSONValue) throws(LedgerError) -> JSONValue) throws(LedgerError) -> JSONValue {
        if match(self) { return try transform(prefix, self) }
        switch self {
        case .object(let members):
            var out: [String: JSONValue] = [:]
            for (key, value) in members {
                out[key] = try value.replacing(where: match, prefix: prefix.isEmpty ? key : prefix + "." + key, transform)
            }
            return .object(out)
        case .array(let elements):
            var out: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                out.append(try element.replacing(where: match, prefix: "\(prefix)[\(index)]", transform))
            }
            return .array(out)
        default:
            return self
        }
    }
}
