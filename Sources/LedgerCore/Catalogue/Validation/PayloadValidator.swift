/// Checks a payload against a list of ``FieldSchema`` and ``PayloadRule`` values, throwing the
/// first problem as a ``LedgerError`` whose `field` is the JSON path (`payload.ageGates[2]`).
///
/// Order: unknown members (in sorted order), then each field in schema order (missing, then
/// kind and constraints, depth first), then the rules in order. The same input always gives the
/// same error.
enum PayloadValidator {
    /// Checks `payload` (which must be an object) and returns its members.
    static func check(_ payload: JSONValue, fields: [FieldSchema], rules: [PayloadRule],
                      path: String = "payload") throws(LedgerError) -> [String: JSONValue] {
        guard case .object(let members) = payload else {
            throw LedgerError(.invalidField, "must be a JSON object", field: path,
                              hint: "Send the event's data as an object: \"payload\": {…}.")
        }
        try checkObject(members, fields: fields, path: path)
        for rule in rules { try rule.check(members, path: path) }
        return members
    }

    /// The member `name` of `members`, compared by Unicode scalars; `nil` when absent or `null`.
    static func member(_ name: String, of members: [String: JSONValue]) -> JSONValue? {
        guard let value = JSONValue.object(members)[name], !value.isNull else { return nil }
        return value
    }

    static func checkObject(_ members: [String: JSONValue], fields: [FieldSchema], path: String) throws(LedgerError) {
        for key in members.keys.sorted() where !fields.contains(where: { $0.name.unicodeScalars.elementsEqual(key.unicodeScalars) }) {
            let allowed = fields.isEmpty ? "none: this event has no payload fields; send {}" : fields.map(\.name).joined(separator: ", ")
            throw LedgerError(.unknownField, "unknown field", field: path + "." + key,
                              hint: "Allowed in \(path): \(allowed).")
        }
        for field in fields {
            let fieldPath = path + "." + field.name
            guard let value = member(field.name, of: members) else {
                if field.isRequired {
                    throw LedgerError(.missingField, "required field is missing", field: fieldPath,
                                      hint: "Add \(fieldPath): \(field.kind.expectation).")
                }
                continue
            }
            try checkValue(value, kind: field.kind, path: fieldPath)
        }
    }

    static func invalid(_ path: String, _ message: String, hint: String? = nil) -> LedgerError {
        LedgerError(.invalidField, message, field: path, hint: hint ?? "Correct \(path) and send the batch again.")
    }

    static func checkValue(_ value: JSONValue, kind: FieldKind, path: String) throws(LedgerError) {
        switch kind {
        case .boolean:
            guard case .bool = value else { throw invalid(path, "must be \(kind.expectation)") }

        case .integer(let range):
            guard let number = value.intValue, range.contains(number) else {
                throw invalid(path, "must be \(kind.expectation)")
            }

        case .code(let codes):
            guard let number = value.intValue, codes.contains(where: { $0.code == number }) else {
                throw invalid(path, "must be \(kind.expectation)",
                              hint: "Allowed values: " + codes.map { "\($0.code) (\($0.label))" }.joined(separator: ", ") + ".")
            }

        case .text(let maxLength):
            guard case .string(let text) = value, !text.isEmpty, text.count <= maxLength else {
                throw invalid(path, "must be \(kind.expectation)")
            }
            if let found = ForbiddenFreeText.violation(in: text) { throw ForbiddenPersonalData.refusal(found, path: path, inText: true) }

        case .token(let format):
            guard case .string(let text) = value, format.matches(text) else {
                throw invalid(path, "must be \(kind.expectation)")
            }

        case .oneOf(let values):
            guard case .string(let text) = value else { throw invalid(path, "must be a string: \(kind.expectation)") }
            guard values.contains(where: { $0.name.unicodeScalars.elementsEqual(text.unicodeScalars) }) else {
                let deprecated = values.filter(\.isDeprecated).map(\.name)
                var hint = "Allowed values: " + values.filter { !$0.isDeprecated }.map(\.name).joined(separator: ", ") + "."
                if !deprecated.isEmpty {
                    hint += " Also accepted (deprecated): " + deprecated.joined(separator: ", ") + "."
                }
                throw invalid(path, "\(CanonicalJSON.encodeString(value)) is not an allowed value", hint: hint)
            }

        case .array(let element, let count, let unique):
            guard case .array(let elements) = value else { throw invalid(path, "must be \(kind.expectation)") }
            guard count.contains(elements.count) else {
                throw invalid(path, "must hold \(count.lowerBound) to \(count.upperBound) items; it holds \(elements.count)",
                              hint: "Send \(kind.expectation).")
            }
            for (index, item) in elements.enumerated() {
                let itemPath = "\(path)[\(index)]"
                if item.isNull { throw invalid(itemPath, "must be \(element.expectation), not null") }
                try checkValue(item, kind: element, path: itemPath)
                if unique, let earlier = elements[..<index].firstIndex(of: item) {
                    throw invalid(itemPath, "repeats \(path)[\(earlier)]; the items must be distinct")
                }
            }

        case .object(let fields):
            guard case .object(let members) = value else { throw invalid(path, "must be a JSON object") }
            try checkObject(members, fields: fields, path: path)

        case .variant(let cases):
            let names = cases.map(\.name).joined(separator: ", ")
            guard case .object(let members) = value, members.count == 1, let (name, inner) = members.first else {
                throw invalid(path, "must be \(kind.expectation)", hint: "Send {\"<case>\": {…}} with <case> one of \(names).")
            }
            guard let chosen = cases.first(where: { $0.name.unicodeScalars.elementsEqual(name.unicodeScalars) }) else {
                throw LedgerError(.unknownField, "unknown case", field: path + "." + name, hint: "Allowed in \(path): \(names).")
            }
            guard case .object(let caseMembers) = inner else { throw invalid(path + "." + name, "must be a JSON object") }
            try checkObject(caseMembers, fields: chosen.fields, path: path + "." + name)
        }
    }
}
