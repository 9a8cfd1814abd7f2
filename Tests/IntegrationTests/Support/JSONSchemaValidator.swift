import Foundation
import LedgerCore

/// A JSON Schema (draft 2020-12) validator for the subset the report schemas in `docs/reports`
/// use, so tests can check real report output against the published schemas.
///
/// ```swift
/// let problems = try JSONSchemaValidator(schemaFile: "regulator").violations(of: result.json)
/// #expect(problems.isEmpty, "\(problems)")
/// // ["$.rows[3].answer: \"maybe\" is not one of \"approval\", \"denial\", …"]
/// ```
///
/// Assertion keywords understood: `type` (a name or an array of names; `integer` is a number
/// with no fraction), `required`, `properties`, `additionalProperties` (a boolean or a schema),
/// `items` (one schema for every element), `enum`, `const`, `oneOf`, `anyOf`, `$ref` (only
/// `#/$defs/<name>`, resolved against the root's `$defs`; its sibling keywords apply too),
/// `minimum`, `maximum`, `minLength`, `maxLength` (code points), `pattern` (NSRegularExpression, unanchored as in JSON Schema) and `format`, which
/// is asserted, not just annotated: `date-time` (RFC 3339 in UTC, ending in `Z`, fraction
/// allowed), `date` (`YYYY-MM-DD`, a real day) and `uuid` (lowercase, as the ledger writes them).
/// Annotations ignored: `$schema`, `$id`, `title`, `description`, `$comment`, `examples`.
///
/// Loading a schema walks all of it and refuses (throws ``SchemaError``, listing every problem
/// with its location as a JSON pointer) any keyword it does not know, so that no part of a
/// schema can silently go unchecked; and also malformed keyword values, `$ref`s that lead
/// nowhere, unknown formats or type names, patterns that do not compile, and contradictions
/// that would make the schema wrong whatever the data (a required member that
/// `additionalProperties: false` forbids, an `enum` value of a type the `type` excludes, a
/// `pattern` on a schema that admits no string, …).
struct JSONSchemaValidator: @unchecked Sendable {  // NSRegularExpression is immutable and thread-safe
    /// Why a schema was refused.
    struct SchemaError: Error, CustomStringConvertible {
        /// Where the schema came from (a file path, or "schema").
        var source: String
        /// Every problem found, each `#/pointer: what`.
        var problems: [String]
        var description: String { "\(source) is refused:\n" + problems.map { "  " + $0 }.joined(separator: "\n") }
    }

    /// One place where a value breaks its schema.
    struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// Where, as a JSON path: `$`, `$.rows[3].answer`, `$["13to15"]`.
        var path: String
        /// What is wrong.
        var message: String
        /// Whether the value is of a type the schema does not admit (used to pick the alternative
        /// of a failed `oneOf` / `anyOf` worth reporting).
        var isTypeMismatch = false
        /// `path: message`.
        var description: String { "\(path): \(message)" }
    }

    /// The keywords that only annotate, ignored.
    static let annotationKeywords: Set<String> = ["$schema", "$id", "title", "description", "$comment", "examples"]
    /// The keywords validated.
    static let assertionKeywords: Set<String> = [
        "type", "required", "properties", "additionalProperties", "items", "enum", "const", "oneOf", "anyOf", "$ref",
        "minimum", "maximum", "minLength", "maxLength", "pattern", "format", "$defs",
    ]
    /// Every keyword understood.
    static var knownKeywords: Set<String> { annotationKeywords.union(assertionKeywords) }
    /// The formats asserted.
    static let formats: Set<String> = ["date-time", "date", "uuid"]
    /// JSON Schema's type names.
    static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    /// The whole schema.
    let root: JSONValue
    /// Where it came from.
    let source: String
    private let patterns: [String: NSRegularExpression]

    // MARK: - Loading

    /// A validator for `schema`, which must use only the subset described on the type.
    init(schema: JSONValue, source: String = "schema") throws(SchemaError) {
        var walker = SchemaWalker(root: schema)
        walker.walk(schema, at: "#")
        guard walker.problems.isEmpty else { throw SchemaError(source: source, problems: walker.problems) }
        self.root = schema
        self.source = source
        self.patterns = walker.patterns
    }

    /// A validator for the schema file at `url`.
    init(schemaAt url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let schema: JSONValue
        do { schema = try JSONParser.parse(bytes) } catch {
            throw SchemaError(source: url.path, problems: ["not JSON: \(error)"])
        }
        try self.init(schema: schema, source: url.path)
    }

    /// A validator for `docs/reports/<name>.schema.json` of this package ("regulator",
    /// "consent-register", "subject-dossier"; the `.schema.json` suffix may be given too).
    init(schemaFile name: String, filePath: String = #filePath) throws {
        let file = name.hasSuffix(".schema.json") ? name : name + ".schema.json"
        try self.init(schemaAt: try Self.reportsDirectory(filePath: filePath).appendingPathComponent(file))
    }

    /// The package root: the nearest folder above `filePath` holding `Package.swift`.
    static func packageRoot(filePath: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        throw SchemaError(source: filePath, problems: ["no Package.swift in any folder above \(filePath)"])
    }

    /// `docs/reports` of the package.
    static func reportsDirectory(filePath: String = #filePath) throws -> URL {
        try packageRoot(filePath: filePath).appendingPathComponent("docs/reports")
    }

    /// Every `docs/reports/*.schema.json`, sorted by name.
    static func reportSchemaFiles(filePath: String = #filePath) throws -> [URL] {
        let folder = try reportsDirectory(filePath: filePath)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".schema.json") }
            .sorted()
            .map { folder.appendingPathComponent($0) }
    }

    // MARK: - Validating

    /// Every violation of the schema by the JSON text `json` (a report's bytes), as
    /// `path: message` strings in document order; empty when it validates.
    /// - Throws: `JSONParseError` when `json` is not JSON.
    func violations(of json: [UInt8]) throws -> [String] {
        violations(of: try JSONParser.parse(json))
    }

    /// Every violation of the schema by `value`, as `path: message` strings; empty when it validates.
    func violations(of value: JSONValue) -> [String] {
        check(value).map(\.description)
    }

    /// Every violation by `value` of the part of the schema at `pointer` (`#` for the whole;
    /// `#/$defs/snapshot` for one definition), as `path: message` strings.
    func violations(of value: JSONValue, against pointer: String) throws -> [String] {
        guard pointer == "#" || pointer.hasPrefix("#/$defs/") else {
            throw SchemaError(source: source, problems: ["\(pointer): only # and #/$defs/<name> can be validated against"])
        }
        guard let schema = pointer == "#" ? root : resolve(pointer) else {
            throw SchemaError(source: source, problems: ["\(pointer): no such definition"])
        }
        var found: [Violation] = []
        validate(value, schema, path: "$", into: &found)
        return found.map(\.description)
    }

    /// Every violation of the schema by `value`, in document order.
    func check(_ value: JSONValue) -> [Violation] {
        var found: [Violation] = []
        validate(value, root, path: "$", into: &found)
        return found
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/$defs/") else { return nil }
        return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
    }

    private func validate(_ value: JSONValue, _ schema: JSONValue, path: String, into found: inout [Violation]) {
        guard case .object(let keywords) = schema else { return }  // refused at load
        if case .string(let reference)? = keywords["$ref"], let target = resolve(reference) {
            validate(value, target, path: path, into: &found)
        }
        if let type = keywords["type"], !Self.matches(value, type: type) {
            let what = value == .null ? "null" : "\(Self.show(value)) is \(Self.article(Self.typeName(of: value)))"
            found.append(Violation(path: path, message: "\(what), expected \(Self.typeList(type))", isTypeMismatch: true))
            return  // the other keywords would only repeat it
        }
        if let constant = keywords["const"], value != constant {
            found.append(Violation(path: path, message: "\(Self.show(value)) is not \(Self.show(constant))"))
        }
        if case .array(let allowed)? = keywords["enum"], !allowed.contains(value) {
            found.append(Violation(path: path, message: "\(Self.show(value)) is not one of \(Self.showList(allowed))"))
        }
        switch value {
        case .object(let members):
            let properties = keywords["properties"]?.objectValue ?? [:]
            if case .array(let required)? = keywords["required"] {
                for case .string(let name) in required where members[name] == nil {
                    found.append(Violation(path: Self.child(path, name), message: "required member is missing"))
                }
            }
            for name in members.keys.sorted() {
                let member = members[name]!
                if let schema = properties[name] {
                    validate(member, schema, path: Self.child(path, name), into: &found)
                } else if let additional = keywords["additionalProperties"] {
                    if additional == .bool(false) {
                        found.append(Violation(path: Self.child(path, name), message: "unknown member (additionalProperties is false)"))
                    } else if case .object = additional {
                        validate(member, additional, path: Self.child(path, name), into: &found)
                    }
                }
            }
        case .array(let elements):
            if let items = keywords["items"] {
                for (index, element) in elements.enumerated() { validate(element, items, path: "\(path)[\(index)]", into: &found) }
            }
        case .number(let number):
            if case .number(let minimum)? = keywords["minimum"], number < minimum {
                found.append(Violation(path: path, message: "\(Self.show(value)) is less than the minimum \(Self.show(.number(minimum)))"))
            }
            if case .number(let maximum)? = keywords["maximum"], number > maximum {
                found.append(Violation(path: path, message: "\(Self.show(value)) is more than the maximum \(Self.show(.number(maximum)))"))
            }
        case .string(let text):
            // Lengths count Unicode code points, as JSON Schema does.
            if case .number(let minimum)? = keywords["minLength"], Double(text.unicodeScalars.count) < minimum {
                found.append(Violation(path: path, message: "\(Self.show(value)) is shorter than \(Self.show(.number(minimum))) characters"))
            }
            if case .number(let maximum)? = keywords["maxLength"], Double(text.unicodeScalars.count) > maximum {
                found.append(Violation(path: path, message: "\(Self.show(value)) is longer than \(Self.show(.number(maximum))) characters"))
            }
            if case .string(let pattern)? = keywords["pattern"], let regex = patterns[pattern],
               regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                found.append(Violation(path: path, message: "\(Self.show(value)) does not match the pattern \(pattern)"))
            }
            if case .string(let format)? = keywords["format"], !Self.matches(text, format: format) {
                found.append(Violation(path: path, message: "\(Self.show(value)) is not a \(Self.formatExplanation(format))"))
            }
        case .null, .bool:
            break
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let alternatives)? = keywords[keyword] else { continue }
            let outcomes = alternatives.map { alternative -> [Violation] in
                var inner: [Violation] = []
                validate(value, alternative, path: path, into: &inner)
                return inner
            }
            let passing = outcomes.indices.filter { outcomes[$0].isEmpty }
            if keyword == "oneOf", passing.count > 1 {
                found.append(Violation(path: path, message: "matches alternatives \(passing.map { String($0 + 1) }.joined(separator: ", ")) of oneOf; exactly one must match"))
            } else if passing.isEmpty {
                found.append(contentsOf: Self.explainNoMatch(keyword, outcomes, path: path))
            }
        }
    }

    /// When no alternative matched: the violations of the one alternative whose type fits the
    /// value, when there is exactly one (so the report points inside it); otherwise one violation
    /// summing up why each alternative failed.
    private static func explainNoMatch(_ keyword: String, _ outcomes: [[Violation]], path: String) -> [Violation] {
        let fitting = outcomes.filter { inner in !inner.contains { $0.path == path && $0.isTypeMismatch } }
        if fitting.count == 1 { return fitting[0] }
        let reasons = outcomes.enumerated().map { index, inner in "(\(index + 1)) \(inner.first?.description ?? "?")" }
        return [Violation(path: path, message: "matches none of the alternatives of \(keyword): " + reasons.joined(separator: "; "),
                          isTypeMismatch: fitting.isEmpty)]
    }

    // MARK: - Types, formats and messages

    static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let number): return isInteger(number) ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    static func isInteger(_ number: Double) -> Bool { number.isFinite && number.rounded(.towardZero) == number }

    static func matches(_ value: JSONValue, typeName name: String) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .number(let number)):
            return isInteger(number)
        default:
            return false
        }
    }

    static func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        switch type {
        case .string(let name): return matches(value, typeName: name)
        case .array(let names): return names.contains { $0.stringValue.map { matches(value, typeName: $0) } ?? false }
        default: return true  // refused at load
        }
    }

    static func matches(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time": return text.hasSuffix("Z") && RFC3339.isValidDateTime(text)
        case "date": return TokenFormat.date.matches(text)
        case "uuid": return TokenFormat.uuid.matches(text)
        default: return true  // refused at load
        }
    }

    static func formatExplanation(_ format: String) -> String {
        switch format {
        case "date-time": return "date-time (RFC 3339 in UTC, ending in Z)"
        case "date": return "date (YYYY-MM-DD)"
        case "uuid": return "uuid (lowercase)"
        default: return format
        }
    }

    static func typeList(_ type: JSONValue) -> String {
        switch type {
        case .string(let name): return name
        case .array(let names): return names.compactMap(\.stringValue).joined(separator: " or ")
        default: return "?"
        }
    }

    static func article(_ name: String) -> String {
        (name.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + name
    }

    /// A value as canonical JSON, shortened past 80 characters.
    static func show(_ value: JSONValue) -> String {
        let text = CanonicalJSON.encodeString(value)
        return text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }

    static func showList(_ values: [JSONValue]) -> String {
        let shown = values.prefix(12).map(show).joined(separator: ", ")
        return values.count > 12 ? shown + ", … (\(values.count) in all)" : shown
    }

    /// `path.name`, or `path["name"]` when the name is not a plain identifier.
    static func child(_ path: String, _ name: String) -> String {
        let plain = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return plain ? "\(path).\(name)" : "\(path)[\(CanonicalJSON.encodeString(.string(name)))]"
    }
}

/// Walks a whole schema once, collecting every keyword it cannot vouch for.
private struct SchemaWalker {
    let root: JSONValue
    var problems: [String] = []
    var patterns: [String: NSRegularExpression] = [:]

    init(root: JSONValue) { self.root = root }

    mutating func problem(_ pointer: String, _ text: String) { problems.append("\(pointer): \(text)") }

    mutating func walk(_ schema: JSONValue, at pointer: String) {
        guard case .object(let keywords) = schema else {
            problem(pointer, "a schema must be an object here (boolean schemas are not in the supported subset), not \(JSONSchemaValidator.show(schema))")
            return
        }
        for name in keywords.keys.sorted() where !JSONSchemaValidator.knownKeywords.contains(name) {
            problem(pointer, "unknown keyword \"\(name)\": the validator does not check it, so it is refused")
        }
        for name in ["title", "description", "$comment", "$id", "$schema"] {
            if let value = keywords[name], value.stringValue == nil { problem("\(pointer)/\(name)", "must be a string") }
        }
        if pointer != "#", keywords["$schema"] != nil || keywords["$id"] != nil {
            problem(pointer, "$schema and $id belong at the root only")
        }
        let types = checkType(keywords["type"], at: pointer)
        func admits(_ names: String...) -> Bool { types.map { !$0.isDisjoint(with: names) } ?? true }

        if let required = keywords["required"] {
            if let names = required.arrayValue, names.allSatisfy({ $0.stringValue != nil }) {
                if Set(names).count != names.count { problem("\(pointer)/required", "lists a member twice") }
            } else {
                problem("\(pointer)/required", "must be an array of strings")
            }
        }
        if let properties = keywords["properties"] {
            if let members = properties.objectValue {
                for name in members.keys.sorted() { walk(members[name]!, at: "\(pointer)/properties/\(Self.escape(name))") }
            } else {
                problem("\(pointer)/properties", "must be an object")
            }
        }
        if let additional = keywords["additionalProperties"] {
            switch additional {
            case .bool: break
            case .object: walk(additional, at: "\(pointer)/additionalProperties")
            default: problem("\(pointer)/additionalProperties", "must be a boolean or a schema")
            }
        }
        if additionalForbidden(keywords), let required = keywords["required"]?.arrayValue {
            let declared = keywords["properties"]?.objectValue ?? [:]
            for case .string(let name) in required where declared[name] == nil {
                problem("\(pointer)/required", "\"\(name)\" is required but not among properties, and additionalProperties is false: nothing can validate")
            }
        }
        if keywords["required"] != nil || keywords["properties"] != nil || keywords["additionalProperties"] != nil, !admits("object") {
            problem(pointer, "object keywords on a schema whose type admits no object")
        }
        if let items = keywords["items"] {
            if case .object = items { walk(items, at: "\(pointer)/items") } else {
                problem("\(pointer)/items", "must be one schema (the array form is not 2020-12; prefixItems is not supported)")
            }
            if !admits("array") { problem(pointer, "items on a schema whose type admits no array") }
        }
        if let values = keywords["enum"] {
            if let list = values.arrayValue, !list.isEmpty {
                if Set(list).count != list.count { problem("\(pointer)/enum", "lists a value twice") }
                if let type = keywords["type"] {
                    for value in list where !JSONSchemaValidator.matches(value, type: type) {
                        problem("\(pointer)/enum", "\(JSONSchemaValidator.show(value)) can never match: type is \(JSONSchemaValidator.typeList(type))")
                    }
                }
            } else {
                problem("\(pointer)/enum", "must be a non-empty array")
            }
        }
        if let constant = keywords["const"], let type = keywords["type"], !JSONSchemaValidator.matches(constant, type: type) {
            problem("\(pointer)/const", "\(JSONSchemaValidator.show(constant)) can never match: type is \(JSONSchemaValidator.typeList(type))")
        }
        for keyword in ["oneOf", "anyOf"] {
            guard let alternatives = keywords[keyword] else { continue }
            if let list = alternatives.arrayValue, !list.isEmpty {
                for (index, alternative) in list.enumerated() { walk(alternative, at: "\(pointer)/\(keyword)/\(index)") }
            } else {
                problem("\(pointer)/\(keyword)", "must be a non-empty array of schemas")
            }
        }
        if let reference = keywords["$ref"] {
            if let text = reference.stringValue, text.hasPrefix("#/$defs/") {
                let name = String(text.dropFirst("#/$defs/".count))
                if name.contains("/") || name.contains("~") {
                    problem("\(pointer)/$ref", "\(text): only #/$defs/<plain name> is supported")
                } else if root["$defs"]?[name] == nil {
                    problem("\(pointer)/$ref", "\(text) leads nowhere: the root's $defs has no \"\(name)\"")
                }
            } else {
                problem("\(pointer)/$ref", "only \"#/$defs/<name>\" references are supported, not \(JSONSchemaValidator.show(reference))")
            }
        }
        for bound in ["minimum", "maximum"] {
            guard let value = keywords[bound] else { continue }
            if value.doubleValue == nil { problem("\(pointer)/\(bound)", "must be a number") }
            if !admits("number", "integer") { problem(pointer, "\(bound) on a schema whose type admits no number") }
        }
        for bound in ["minLength", "maxLength"] {
            guard let value = keywords[bound] else { continue }
            if value.doubleValue.map({ $0 < 0 || $0.rounded() != $0 }) ?? true { problem("\(pointer)/\(bound)", "must be a whole number, 0 or more") }
            if !admits("string") { problem(pointer, "\(bound) on a schema whose type admits no string") }
        }
        if let pattern = keywords["pattern"] {
            if let text = pattern.stringValue {
                do { patterns[text] = try NSRegularExpression(pattern: text) } catch {
                    problem("\(pointer)/pattern", "does not compile: \(error)")
                }
            } else {
                problem("\(pointer)/pattern", "must be a string")
            }
            if !admits("string") { problem(pointer, "pattern on a schema whose type admits no string") }
        }
        if let format = keywords["format"] {
            if let name = format.stringValue, JSONSchemaValidator.formats.contains(name) {} else {
                problem("\(pointer)/format", "\(JSONSchemaValidator.show(format)) is not a supported format (\(JSONSchemaValidator.formats.sorted().joined(separator: ", ")))")
            }
            if !admits("string") { problem(pointer, "format on a schema whose type admits no string") }
        }
        if let definitions = keywords["$defs"] {
            if pointer != "#" { problem("\(pointer)/$defs", "$defs belong at the root only ($ref resolves against the root)") }
            if let members = definitions.objectValue {
                for name in members.keys.sorted() { walk(members[name]!, at: "\(pointer)/$defs/\(Self.escape(name))") }
            } else {
                problem("\(pointer)/$defs", "must be an object")
            }
        }
    }

    /// The type names of `type`, checked; nil when there is no `type`.
    mutating func checkType(_ type: JSONValue?, at pointer: String) -> Set<String>? {
        guard let type else { return nil }
        let names: [JSONValue]
        switch type {
        case .string: names = [type]
        case .array(let list) where !list.isEmpty: names = list
        default:
            problem("\(pointer)/type", "must be a type name or a non-empty array of them")
            return nil
        }
        var seen: Set<String> = []
        for name in names {
            guard let text = name.stringValue, JSONSchemaValidator.typeNames.contains(text) else {
                problem("\(pointer)/type", "\(JSONSchemaValidator.show(name)) is not a type name")
                continue
            }
            if !seen.insert(text).inserted { problem("\(pointer)/type", "lists \(text) twice") }
        }
        // integer is a kind of number.
        return seen.contains("number") ? seen.union(["integer"]) : seen
    }

    func additionalForbidden(_ keywords: [String: JSONValue]) -> Bool { keywords["additionalProperties"] == .bool(false) }

    /// A member name as a JSON pointer token (RFC 6901).
    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
