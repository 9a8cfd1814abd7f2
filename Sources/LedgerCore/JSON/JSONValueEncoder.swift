/// Encodes an `Encodable` value straight into a ``JSONValue``, with no JSON text in between.
///
/// The HTTP API answers typed bodies in canonical form (``CanonicalJSON/encode(encodable:)``).
/// Going through Foundation's `JSONEncoder` wrote text only to parse it again before sorting
/// the members; on the one-event append path that round trip was measurable (docs/benchmarks.md,
/// issue 15). Numbers become doubles, as ``JSONParser`` would have read them; a number that is
/// not finite is refused, as `JSONEncoder` refuses it. Dates and data have no meaning of their
/// own here: no type the API answers holds one.
enum JSONValueEncoder {
    /// The value's JSON tree.
    static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        let root = Node()
        try TreeEncoder(node: root, codingPath: []).encodeValue(value)
        return root.resolved
    }
}

/// One place in the tree being written: empty until a container or a value fills it.
private final class Node {
    var scalar: JSONValue?
    var members: [String: Node]?
    var elements: [Node]?

    var resolved: JSONValue {
        if let members { return .object(members.mapValues(\.resolved)) }
        if let elements { return .array(elements.map(\.resolved)) }
        return scalar ?? .object([:])
    }

    func child(_ key: String) -> Node {
        if members == nil { members = [:] }
        let node = Node()
        members![key] = node
        return node
    }

    func appended() -> Node {
        if elements == nil { elements = [] }
        let node = Node()
        elements!.append(node)
        return node
    }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(encoder: self)
    }

    /// Writes a value into this node: scalars directly, anything else through its own `encode(to:)`.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let v as JSONValue: node.scalar = v
        case let v as String: node.scalar = .string(v)
        case let v as Bool: node.scalar = .bool(v)
        case let v as Int: node.scalar = .number(Double(v))
        case let v as Int64: node.scalar = .number(Double(v))
        case let v as Int32: node.scalar = .number(Double(v))
        case let v as UInt64: node.scalar = .number(Double(v))
        case let v as UInt32: node.scalar = .number(Double(v))
        case let v as Double: node.scalar = try Self.finite(v, codingPath)
        case let v as Float: node.scalar = try Self.finite(Double(v), codingPath)
        default: try value.encode(to: self)
        }
    }

    static func finite(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                                                          debugDescription: "JSON has no \(value)"))
        }
        return .number(value)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func encoder(_ key: Key) -> TreeEncoder {
        TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).scalar = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.child("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.elements?.count ?? 0 }

    private func encoder() -> TreeEncoder {
        TreeEncoder(node: node.appended(), codingPath: codingPath)
    }

    mutating func encodeNil() throws { node.appended().scalar = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.scalar = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}
