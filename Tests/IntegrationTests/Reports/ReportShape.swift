import LedgerCore

/// The shape of a `Decodable` type as JSON: which members each object has, which may be null or
/// left out, and the JSON type of each scalar, learnt by decoding the type from a decoder that
/// records what it is asked for and answers with placeholders. What lets a test hold a report's
/// type and its published JSON Schema together (``ReportTypeSchemaTests``).
indirect enum ReportShape: Equatable, CustomStringConvertible {
    /// A JSON string, integer, number or Boolean (the schema's type name).
    case scalar(String)
    /// Any JSON (a member typed ``JSONValue``).
    case any
    /// An array whose elements have this shape.
    case array(Element)
    /// An object with these members.
    case object([String: Member])

    /// An array's element: its shape, and whether it may be null.
    struct Element: Equatable {
        var shape: ReportShape
        var nullable: Bool
    }

    /// A member: its shape, whether it may be null, and whether it may be left out.
    struct Member: Equatable {
        var shape: ReportShape
        var nullable: Bool
        var optional: Bool
    }

    var description: String {
        switch self {
        case .scalar(let name): return name
        case .any: return "any"
        case .array(let element): return "[\(element.shape)\(element.nullable ? "?" : "")]"
        case .object(let members): return "{" + members.keys.sorted().joined(separator: ", ") + "}"
        }
    }

    /// The shape of `type`.
    static func of<Value: Decodable>(_ type: Value.Type) throws -> ReportShape {
        let root = ShapeNode()
        _ = try Value(from: ShapeDecoder(node: root))
        return root.shape
    }
}

/// One place in the shape being learnt.
private final class ShapeNode {
    var scalar: String?
    var isAny = false
    var nullable = false
    var optional = false
    var members: [String: ShapeNode]?
    var element: ShapeNode?

    var shape: ReportShape {
        if let members {
            return .object(members.mapValues { .init(shape: $0.shape, nullable: $0.nullable, optional: $0.optional) })
        }
        if let element { return .array(.init(shape: element.shape, nullable: element.nullable)) }
        if isAny { return .any }
        return .scalar(scalar ?? "?")
    }

    func member(_ key: String) -> ShapeNode {
        if members == nil { members = [:] }
        if let node = members![key] { return node }
        let node = ShapeNode()
        members![key] = node
        return node
    }

    /// A placeholder of `type` for the decoder to return, recording its JSON type.
    func placeholder<T: Decodable>(_ type: T.Type, decoder: ShapeDecoder) throws -> T {
        switch type {
        case is JSONValue.Type: isAny = true; return JSONValue.null as! T
        case is String.Type: scalar = "string"; return "" as! T
        case is Bool.Type: scalar = "boolean"; return false as! T
        case is Double.Type: scalar = "number"; return 0.0 as! T
        case is Float.Type: scalar = "number"; return Float(0) as! T
        case let integer as any FixedWidthInteger.Type: scalar = "integer"; return integer.zero as! T
        default: return try T(from: decoder)
        }
    }
}

private struct ShapeDecoder: Decoder {
    let node: ShapeNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedDecodingContainer(ShapeKeyed<Key>(node: node))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if node.element == nil { node.element = ShapeNode() }
        return ShapeUnkeyed(node: node.element!)
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { ShapeSingle(node: node, decoder: self) }
}

private struct ShapeSingle: SingleValueDecodingContainer {
    let node: ShapeNode
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { [] }
    /// Asked whether it is null: it may be.
    func decodeNil() -> Bool { node.nullable = true; return false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Bool.Type) throws -> Bool { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: String.Type) throws -> String { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Double.Type) throws -> Double { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Float.Type) throws -> Float { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Int.Type) throws -> Int { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Int8.Type) throws -> Int8 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Int16.Type) throws -> Int16 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Int32.Type) throws -> Int32 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: Int64.Type) throws -> Int64 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: UInt.Type) throws -> UInt { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try node.placeholder(type, decoder: decoder) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try node.placeholder(type, decoder: decoder) }
}

private struct ShapeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ShapeNode
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    /// Asked here (by `decodeIfPresent`), the member may be left out (and may be null).
    func decodeNil(forKey key: Key) throws -> Bool {
        let member = node.member(key.stringValue)
        member.optional = true
        member.nullable = true
        return false
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, member: key) }
    private func decode<T: Decodable>(_ type: T.Type, member key: Key) throws -> T {
        let member = node.member(key.stringValue)
        return try member.placeholder(type, decoder: ShapeDecoder(node: member))
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, member: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, member: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, member: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, member: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, member: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, member: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, member: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, member: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, member: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, member: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, member: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, member: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, member: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, member: key) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ShapeDecoder(node: node.member(key.stringValue)).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ShapeDecoder(node: node.member(key.stringValue)).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { ShapeDecoder(node: node) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ShapeDecoder(node: node.member(key.stringValue)) }
}

/// An array of one element, so that the element's type is learnt once.
private struct ShapeUnkeyed: UnkeyedDecodingContainer {
    let node: ShapeNode
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    init(node: ShapeNode) { self.node = node }

    mutating func decodeNil() throws -> Bool { node.nullable = true; return false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try node.placeholder(type, decoder: ShapeDecoder(node: node))
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: String.Type) throws -> String { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Double.Type) throws -> Double { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Float.Type) throws -> Float { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Int.Type) throws -> Int { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { currentIndex += 1; return try node.placeholder(type, decoder: ShapeDecoder(node: node)) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return try ShapeDecoder(node: node).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try ShapeDecoder(node: node).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { currentIndex += 1; return ShapeDecoder(node: node) }
}
