import PostgresNIO

/// A `text[]` parameter whose elements may be NULL. PostgresNIO binds `[String]` but not
/// `[String?]`, so this writes the binary array format itself (the null flag, and length -1 for
/// each NULL element).
struct NullableTextArray: PostgresNonThrowingEncodable, Sendable {
    /// The elements, nil for NULL.
    var values: [String?]

    /// Wraps the elements.
    init(_ values: [String?]) { self.values = values }

    static var psqlType: PostgresDataType { .textArray }
    static var psqlFormat: PostgresFormat { .binary }

    /// Writes the array in PostgreSQL's binary array format (one dimension, lower bound 1).
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)          // dimensions
        buffer.writeInteger(values.contains(nil) ? 1 : 0, as: Int32.self)    // has NULLs
        buffer.writeInteger(PostgresDataType.text.rawValue)                  // element type
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))                             // length
        buffer.writeInteger(1, as: Int32.self)                               // lower bound
        for value in values {
            if let value {
                buffer.writeInteger(Int32(value.utf8.count))
                buffer.writeString(value)
            } else {
                buffer.writeInteger(-1, as: Int32.self)
            }
        }
    }
}
