extension JSONValue {
    /// The value with the member at `path` (object member names, outermost first) replaced by
    /// `transform(old)`; unchanged when the path does not lead to a value.
    public func updating(path: ArraySlice<String>, _ transform: (JSONValue) throws(LedgerError) -> JSONValue) throws(LedgerError) -> JSONValue {
        guard let head = path.first, case .object(var members) = self, let child = members[head] else { return self }
        members[head] = path.count == 1 ? try transform(child) : try child.updating(path: path.dropFirst(), transform)
        return .object(members)
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
