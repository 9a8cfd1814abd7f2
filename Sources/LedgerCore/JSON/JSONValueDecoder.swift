/// Decodes a `Decodable` value straight from a ``JSONValue``: the catalogue's typed payloads are
/// read from the tree the parser already built, without writing it out as text for Foundation's
/// `JSONDecoder` to parse again (that round trip was a tenth of checking an event). The mirror of
/// ``JSONValueEncoder``. Numbers decode into integer types only when they are whole and in range.
enum JSONValueDecoder {
    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path, as `JSONDecoder` would.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try Value(from: TreeDecoder(value: value, codingPath: []))
    }
}

/// One value of the tree, as a `Decoder`.
private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return TreeUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { TreeSingleValue(value: value, codingPath: codingPath) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(CanonicalJSON.encodeString(value))"))
    }
}

/// A JSON number, string or bool as the scalar types ask for it.
private struct TreeSingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }
    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }
    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(type) }
        return number
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A member typed JSONValue is the subtree itself.
        if let tree = value as? T { return tree }
        return try T(from: TreeDecoder(value: value, codingPath: codingPath))
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value, number == number.rounded(.towardZero), let exact = T(exactly: number) else {
            throw mismatch(type)
        }
        return exact
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(CanonicalJSON.encodeString(value))"))
    }
}

/// An object's members by key.
private struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \(key.stringValue)"))
        }
        return value
    }

    private func decoder(_ key: Key) throws -> TreeDecoder { TreeDecoder(value: try member(key), codingPath: codingPath + [key]) }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let decoder = try decoder(key)
        return try TreeSingleValue(value: decoder.value, codingPath: decoder.codingPath).decode(type)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try single(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try single(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try single(key).decode(type) }

    private func single(_ key: Key) throws -> TreeSingleValue { TreeSingleValue(value: try member(key), codingPath: codingPath + [key]) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { TreeDecoder(value: .object(members), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
}

/// An array's elements in order.
private struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = try next()
        return try TreeSingleValue(value: decoder.value, codingPath: decoder.codingPath).decode(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// An array index as a coding key.
private struct IndexKey: CodingKey {
    var stringValue: String { "Index \(intValue ?? 0)" }
    var intValue: Int?
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
