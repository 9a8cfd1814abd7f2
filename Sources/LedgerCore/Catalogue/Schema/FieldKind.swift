/// What a payload field may hold: its JSON kind and the constraints on it.
///
/// One value describes a field for both validation (``EventCatalogue/validate(type:schemaVersion:payload:context:)``)
/// and documentation (`CatalogueMarkdown` (LedgerGenerators)), so the two cannot disagree.
public indirect enum FieldKind: Sendable, Equatable {
    /// `true` or `false`.
    case boolean
    /// An integral JSON number inside the range.
    case integer(ClosedRange<Int>)
    /// An integer from a fixed list of codes, each with a label (`313` = `13+`).
    case code([CodedValue])
    /// Free text of 1 to `maxLength` characters.
    case text(maxLength: Int)
    /// A string in a fixed format (a UUID, a pseudonym, a timestamp, …).
    case token(TokenFormat)
    /// A string from a fixed list of values.
    case oneOf([AllowedValue])
    /// A JSON array whose elements have `element`'s kind.
    case array(of: FieldKind, count: ClosedRange<Int>, unique: Bool)
    /// A JSON object with these members (no others).
    case object([FieldSchema])
    /// A JSON object with exactly one member, naming which case it is; the member's value is an
    /// object with the case's fields. This is how Swift encodes an enum with associated values:
    /// `{"significantAppUpdate": {"description": "…"}}`.
    case variant([VariantCase])

    /// The JSON kind: `boolean`, `integer`, `string`, `array` or `object`.
    public var jsonKind: String {
        switch self {
        case .boolean: return "boolean"
        case .integer, .code: return "integer"
        case .text, .token, .oneOf: return "string"
        case .array: return "array"
        case .object, .variant: return "object"
        }
    }

    /// What the value must be, as a phrase (`an integer from 1 to 21`), for errors and documentation.
    public var expectation: String {
        switch self {
        case .boolean:
            return "true or false"
        case .integer(let range):
            if range.upperBound >= FieldKind.largestInteger { return "an integer from \(range.lowerBound)" }
            return "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .code(let codes):
            return "one of the integers " + codes.map { "\($0.code) (\($0.label))" }.joined(separator: ", ")
        case .text(let maxLength):
            return "a string of 1 to \(maxLength) characters"
        case .token(let format):
            return format.explanation
        case .oneOf(let values):
            return "one of " + values.map(\.name).joined(separator: ", ")
        case .array(let element, let count, let unique):
            let items = count.lowerBound == count.upperBound
                ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            return "an array of \(items) \(unique ? "distinct " : "")items, each \(element.expectation)"
        case .object:
            return "a JSON object"
        case .variant(let cases):
            return "a JSON object with exactly one of the members " + cases.map(\.name).joined(separator: ", ")
        }
    }

    /// The largest integer a JSON number holds exactly (2^53).
    public static let largestInteger = 9_007_199_254_740_992

    /// A string field whose values are the cases of a Swift enum, in declaration order, with its
    /// deprecated cases marked.
    public static func oneOf<Value: CatalogueValue>(_ type: Value.Type) -> FieldKind {
        .oneOf(Value.allCases.map { AllowedValue($0.rawValue, deprecated: Value.deprecatedValues.contains($0)) })
    }

    /// An integer field whose values are the cases of a Swift enum of codes.
    public static func code<Value: CatalogueCode>(_ type: Value.Type) -> FieldKind {
        .code(Value.allCases.map { CodedValue(code: $0.rawValue, label: $0.label) })
    }

    /// A string field from plain values, some of them deprecated.
    public static func oneOf(_ names: [String], deprecated: Set<String> = []) -> FieldKind {
        .oneOf(names.map { AllowedValue($0, deprecated: deprecated.contains($0)) })
    }
}

/// One allowed value of a string field.
public struct AllowedValue: Sendable, Equatable {
    /// The value, exactly as the platform spells it.
    public let name: String
    /// Accepted, but the platform no longer produces it.
    public let isDeprecated: Bool

    /// Creates an allowed value.
    public init(_ name: String, deprecated: Bool = false) {
        self.name = name
        self.isDeprecated = deprecated
    }
}

/// One allowed code of an integer field, with what it means.
public struct CodedValue: Sendable, Equatable {
    /// The number, as the platform sends it (`313`).
    public let code: Int
    /// What it means (`13+`).
    public let label: String

    /// Creates a code.
    public init(code: Int, label: String) {
        self.code = code
        self.label = label
    }
}

/// One case of a ``FieldKind/variant(_:)`` field.
public struct VariantCase: Sendable, Equatable {
    /// The member name that selects the case (`communication`).
    public let name: String
    /// The fields of the case's object.
    public let fields: [FieldSchema]
    /// A one-line description.
    public let summary: String

    /// Creates a case.
    public init(_ name: String, _ summary: String, fields: [FieldSchema]) {
        self.name = name
        self.summary = summary
        self.fields = fields
    }
}
