import Foundation

/// `JSONValue` inside `Codable` types (an HTTP body holding a subject's state, say): encoded as
/// the JSON it is, decoded from any JSON.
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension CanonicalJSON {
    /// The RFC 8785 bytes of an `Encodable` value, so that a typed answer is the same bytes every
    /// time (the HTTP API's bodies). Whole numbers up to 2^53 come out as integers. The value
    /// goes straight into a tree (``JSONValueEncoder``), never through JSON text.
    public static func encode<Value: Encodable>(encodable value: Value) throws -> [UInt8] {
        encode(try JSONValueEncoder.encode(value))
    }
}

extension JSONValue {
    /// The value as a `Decodable` type, read straight from the tree (``JSONValueDecoder``) as
    /// `JSONDecoder` would read its JSON text.
    /// - Throws: `DecodingError` naming the coding path.
    public func decoded<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONValueDecoder.decode(type, from: self)
    }
}
