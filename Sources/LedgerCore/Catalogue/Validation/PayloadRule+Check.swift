extension PayloadRule {
    /// Checks the rule on an object whose fields already have the right kinds.
    func check(_ members: [String: JSONValue], path: String) throws(LedgerError) {
        func value(_ name: String) -> JSONValue? { PayloadValidator.member(name, of: members) }
        func at(_ name: String) -> String { path + "." + name }

        switch self {
        case .exactlyOne(let fields):
            let present = fields.filter { value($0) != nil }
            if present.isEmpty {
                throw LedgerError(.missingField, "one of \(fields.joined(separator: ", ")) is required", field: at(fields[0]),
                                  hint: "Send exactly one of \(fields.map(at).joined(separator: ", ")).")
            }
            if present.count > 1 {
                throw LedgerError(.invalidField, "\(present[1]) cannot be sent together with \(present[0])", field: at(present[1]),
                                  hint: "Send exactly one of \(fields.map(at).joined(separator: ", ")).")
            }

        case .atLeastOne(let fields):
            if fields.allSatisfy({ value($0) == nil }) {
                throw LedgerError(.missingField, "one of \(fields.joined(separator: ", ")) is required", field: at(fields[0]),
                                  hint: "Send at least one of \(fields.map(at).joined(separator: ", ")).")
            }

        case .requires(let field, let other):
            if value(field) != nil, value(other) == nil {
                throw LedgerError(.invalidField, "only allowed together with \(other)", field: at(field),
                                  hint: "Send \(at(other)) as well, or drop \(at(field)).")
            }

        case .requiredWhen(let field, let other, let values):
            if let current = value(other)?.stringValue, values.contains(current), value(field) == nil {
                throw LedgerError(.missingField, "required when \(other) is \(current)", field: at(field),
                                  hint: "Add \(at(field)).")
            }

        case .onlyWhen(let field, let other, let values):
            if value(field) != nil, !(value(other)?.stringValue.map(values.contains) ?? false) {
                throw LedgerError(.invalidField, "only allowed when \(other) is \(values.joined(separator: " or "))", field: at(field),
                                  hint: "Drop \(at(field)), or check \(at(other)).")
            }

        case .orderedBounds(let lower, let upper):
            if let low = value(lower)?.intValue, let high = value(upper)?.intValue, low > high {
                throw LedgerError(.invalidField, "\(lower) (\(low)) is above \(upper) (\(high))", field: at(lower),
                                  hint: "Send the bounds the platform returned: \(lower) is at most \(upper).")
            }

        case .minimumSpan(let lower, let upper, let floor, let years):
            if let high = value(upper)?.intValue {
                let low = value(lower)?.intValue ?? floor
                let span = high - low + 1
                if span < years {
                    throw LedgerError(.invalidField,
                                      "the range \(low) to \(high) spans \(span) year\(span == 1 ? "" : "s"); a range spans at least \(years) years",
                                      field: at(upper),
                                      hint: "A one-year range is an exact age, which the ledger never accepts. "
                                          + "Send the bounds exactly as the platform returned them.")
                }
            }

        case .ageGates(let field, let years):
            guard let gates = value(field)?.arrayValue?.compactMap(\.intValue) else { return }
            for (index, gate) in gates.enumerated() {
                let gatePath = "\(at(field))[\(index)]"
                if index == 0 {
                    if gate < years {
                        throw LedgerError(.invalidField,
                                          "the range below the first gate, 0 to \(gate - 1), spans \(gate) year\(gate == 1 ? "" : "s"); each range spans at least \(years) years",
                                          field: gatePath, hint: "Use a first gate of at least \(years).")
                    }
                    continue
                }
                let previous = gates[index - 1]
                if gate <= previous {
                    throw LedgerError(.invalidField, "must be greater than \(field)[\(index - 1)] (\(previous)); age gates strictly increase",
                                      field: gatePath, hint: "List the gates in increasing order, each once.")
                }
                if gate - previous < years {
                    throw LedgerError(.invalidField,
                                      "the range \(previous) to \(gate - 1) spans \(gate - previous) year\(gate - previous == 1 ? "" : "s"); each range spans at least \(years) years",
                                      field: gatePath,
                                      hint: "Consecutive gates differ by at least \(years) (\(previous), \(previous + years) is allowed). "
                                          + "DeclaredAgeRange answers such a request with invalidRequest.")
                }
            }

        case .uniqueMembers(let array, let key):
            guard let elements = value(array)?.arrayValue else { return }
            var seen: [JSONValue: Int] = [:]
            for (index, element) in elements.enumerated() {
                guard let id = element[key] else { continue }
                if let earlier = seen[id] {
                    throw LedgerError(.invalidField, "repeats \(array)[\(earlier)].\(key)", field: "\(at(array))[\(index)].\(key)",
                                      hint: "Give every element of \(at(array)) its own \(key).")
                }
                seen[id] = index
            }

        case .memberReference(let field, let array, let key):
            guard let reference = value(field) else { return }
            let ids = value(array)?.arrayValue?.compactMap { $0[key] } ?? []
            if !ids.contains(reference) {
                let list = ids.map { CanonicalJSON.encodeString($0) }.joined(separator: ", ")
                throw LedgerError(.invalidField, "must be the \(key) of one of \(array)", field: at(field),
                                  hint: "Known \(key)s in \(at(array)): \(list.isEmpty ? "none" : list).")
            }
        }
    }
}
