import NIOCore
import PostgresNIO

/// A `text[]` parameter whose elements may be NULL (`[String?]`), which PostgresNIO's arrays do
/// not encode: the checked append's optional columns (subject, actor id, correlation and causation
/// ids), one element per event; the append benchmark's plain insert uses it too.
public struct NullableTextArray: PostgresEncodable, PostgresNonThrowingEncodable, Sendable {
    /// The elements, nil for NULL.
    public let elements: [String?]

    /// Wraps the elements.
    public init(_ elements: [String?]) { self.elements = elements }

    public static var psqlType: PostgresDataType { .textArray }
    public static var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's binary array: dimensions, a has-nulls flag, the element type, the length and
    /// lower bound of the one dimension, then each element as a length (-1 for NULL) and its bytes.
    public func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains(nil) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(PostgresDataType.text.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            buffer.writeInteger(Int32(element.utf8.count))
            buffer.writeString(element)
        }
    }
}
