/// A JSON value as defined by RFC 8259, restricted to what RFC 8785 (JCS) can canonicalize.
///
/// Numbers are IEEE-754 doubles. Values produced by ``JSONParser`` are always finite; building a
/// `.number` holding NaN or an infinity by hand is a programming error that ``CanonicalJSON``
/// traps on.
///
/// Equality is exact, not Unicode-canonical: two strings (or object keys) are equal only when
/// they consist of the same Unicode scalars, so `.string("\u{E9}") != .string("e\u{301}")`, even
/// though Swift's `String` considers them equal. Two values are equal exactly when their canonical
/// encodings are equal (`0` and `-0` are equal, as both canonicalize to `0`).
///
/// Note that `[String: JSONValue]` uses Swift's `String` equality for its keys, so one object
/// cannot hold two keys that differ only in Unicode normalization; ``JSONParser`` rejects such
/// input as a duplicate key.
public enum JSONValue: Sendable {
    /// The JSON literal `null`.
    case null
    /// The JSON literals `true` and `false`.
    case bool(Bool)
    /// A JSON number, held as an IEEE-754 double.
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object. Member order carries no meaning; ``CanonicalJSON`` sorts the members.
    case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` when this is an object holding that exact key (compared by Unicode
    /// scalars, not by canonical equivalence); otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self, let index = members.index(forKey: key) else {
            return nil
        }
        let member = members[index]
        // Not a ternary: with ExpressibleByNilLiteral, `cond ? value : nil` would yield `.null`.
        guard member.key.unicodeScalars.elementsEqual(key.unicodeScalars) else { return nil }
        return member.value
    }

    /// The string when this is `.string`; otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean when this is `.bool`; otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members when this is `.object`; otherwise `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements when this is `.array`; otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The double when this is `.number`; otherwise `nil`.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int` when it is integral and its magnitude is at most 2^53 (so that it
    /// is exactly the integer that was written); otherwise `nil`.
    public var intValue: Int? {
        guard case .number(let value) = self,
              value.isFinite,
              value.rounded(.towardZero) == value,
              value.magnitude <= 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Exact equality and hashing

extension JSONValue: Hashable {
    /// Exact structural equality: strings and object keys compare by Unicode scalars.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.number(a), .number(b)):
            return a == b
        case let (.string(a), .string(b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)):
            return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let index = b.index(forKey: key) else { return false }
                let other = b[index]
                guard other.key.unicodeScalars.elementsEqual(key.unicodeScalars),
                      other.value == value
                else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: strings by their UTF-8 bytes, objects
    /// independently of member order.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .number(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(3 as UInt8)
            Self.combineExactly(value, into: &hasher)
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            for element in elements { hasher.combine(element) }
        case .object(let members):
            hasher.combine(5 as UInt8)
            hasher.combine(members.count)
            var sum = 0
            for (key, value) in members {
                var memberHasher = Hasher()
                Self.combineExactly(key, into: &memberHasher)
                memberHasher.combine(value)
                sum = sum &+ memberHasher.finalize()
            }
            hasher.combine(sum)
        }
    }

    private static func combineExactly(_ string: String, into hasher: inout Hasher) {
        for byte in string.utf8 { hasher.combine(byte) }
        hasher.combine(string.utf8.count)
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `.bool` from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates `.number` from an integer literal, which must have magnitude at most 2^53 so that
    /// the double holds it exactly.
    public init(integerLiteral value: Int) {
        precondition(value.magnitude <= 9_007_199_254_740_992,
                     "integer literal \(value) cannot be represented exactly as a JSON number")
        self = .number(Double(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates `.number` from a floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates `.string` from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates `.array` from an array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates `.object` from a dictionary literal; duplicate keys are a programming error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(uniqueKeysWithValues: elements))
    }
}
