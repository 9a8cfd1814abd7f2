/// Reads typed fields out of a JSON object and throws errors that name the field's full path.
package struct FieldReader {
    let object: [String: JSONValue]
    let path: String

    /// Patterns a string field must match.
    package enum Pattern {
        case uuid, stream, typeName, pseudonym, identifier, bundleId, version, jurisdiction

        func matches(_ s: String) -> Bool {
            let u = Array(s.utf8)
            func all(_ allowed: (UInt8) -> Bool) -> Bool { u.allSatisfy(allowed) }
            func alnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
            switch self {
            case .uuid:
                guard u.count == 36 else { return false }
                for (i, c) in u.enumerated() {
                    if [8, 13, 18, 23].contains(i) { if c != UInt8(ascii: "-") { return false } }
                    else if !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) { return false }
                }
                return true
            case .stream:
                return (1...200).contains(u.count) && alnum(u[0]) && all { alnum($0) || ".-_:".utf8.contains($0) }
            case .typeName:
                return (1...64).contains(u.count) && u[0] >= 0x41 && u[0] <= 0x5A && all(alnum)
            case .pseudonym, .identifier:
                return (1...128).contains(u.count) && all { alnum($0) || ".-_:".utf8.contains($0) }
            case .bundleId:
                return (1...255).contains(u.count) && all { alnum($0) || ".-_".utf8.contains($0) }
            case .version:
                return (1...64).contains(u.count) && all { alnum($0) || ".-_+() ".utf8.contains($0) }
            case .jurisdiction:
                if s == "EU" { return true }
                guard u.count == 2 || (u.count >= 4 && u.count <= 6 && u[2] == UInt8(ascii: "-")) else { return false }
                return u[0...1].allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
                    && u.dropFirst(3).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
            }
        }

        package var explanation: String {
            switch self {
            case .uuid: return "a lowercase UUID such as 3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b"
            case .stream: return "1 to 200 characters of A-Z, a-z, 0-9, '.', '_', ':' and '-', such as subject-p_4f1c"
            case .typeName: return "an event type name such as AgeRangeShared"
            case .pseudonym: return "a pseudonym of 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' and '-' (never a name or e-mail address)"
            case .identifier: return "an id of 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' and '-'"
            case .bundleId: return "a bundle id such as com.example.kids"
            case .version: return "a version string such as 2.3.1"
            case .jurisdiction: return "an ISO 3166 code such as US, US-TX or GB, or EU"
            }
        }
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func missing(_ key: String, _ expected: String) -> LedgerError {
        LedgerError(.missingField, "required field is missing", field: fieldPath(key), hint: "Add \(fieldPath(key)): \(expected).")
    }

    func invalid(_ key: String, _ expected: String) -> LedgerError {
        LedgerError(.invalidField, "must be \(expected)", field: fieldPath(key), hint: "Correct \(fieldPath(key)) and send the batch again.")
    }

    func optionalString(_ key: String, pattern: Pattern) throws(LedgerError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard case .string(let s) = value, pattern.matches(s) else { throw invalid(key, pattern.explanation) }
        return s
    }

    func string(_ key: String, pattern: Pattern) throws(LedgerError) -> String {
        guard let s = try optionalString(key, pattern: pattern) else { throw missing(key, pattern.explanation) }
        return s
    }

    func optionalString(_ key: String, oneOf allowed: Set<String>) throws(LedgerError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        let list = allowed.sorted().joined(separator: ", ")
        guard case .string(let s) = value, allowed.contains(s) else { throw invalid(key, "one of \(list)") }
        return s
    }

    func string(_ key: String, oneOf allowed: Set<String>) throws(LedgerError) -> String {
        guard let s = try optionalString(key, oneOf: allowed) else {
            throw missing(key, "one of \(allowed.sorted().joined(separator: ", "))")
        }
        return s
    }

    func positiveInteger(_ key: String, max: Int) throws(LedgerError) -> Int {
        guard let value = object[key] else { throw missing(key, "an integer from 1") }
        guard case .number(let n) = value, n >= 1, n <= Double(max), n == n.rounded() else {
            throw invalid(key, "an integer from 1 to \(max)")
        }
        return Int(n)
    }

    func timestamp(_ key: String) throws(LedgerError) -> String {
        let expected = "an RFC 3339 timestamp with a time zone, such as 2026-11-22T10:15:00Z"
        guard let value = object[key] else { throw missing(key, expected) }
        guard case .string(let s) = value, RFC3339.isValidDateTime(s) else { throw invalid(key, expected) }
        return s
    }

    /// A nested object, checked for unknown keys when `allowed` is given.
    func optionalObject(_ key: String, allowed: Set<String>?) throws(LedgerError) -> FieldReader? {
        guard let value = object[key], value != .null else { return nil }
        guard case .object(let members) = value else { throw invalid(key, "a JSON object") }
        if let allowed {
            for member in members.keys.sorted() where !allowed.contains(member) {
                throw LedgerError(.unknownField, "unknown field", field: fieldPath(key) + "." + member,
                                  hint: "Allowed in \(fieldPath(key)): \(allowed.sorted().joined(separator: ", ")).")
            }
        }
        return FieldReader(object: members, path: fieldPath(key))
    }

    func object(_ key: String, allowed: Set<String>?) throws(LedgerError) -> FieldReader {
        guard let reader = try optionalObject(key, allowed: allowed) else { throw missing(key, "a JSON object") }
        return reader
    }
}
