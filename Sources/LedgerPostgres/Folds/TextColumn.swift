import NIOCore
import PostgresNIO

/// A column of text values, some NULL, bound as one `text[]` parameter: how a Swift fold hands
/// PostgreSQL thousands of rows in one statement (`unnest($1::text[], $2::text[], …)`). PostgresNIO's
/// own array encoding has no NULL elements. The statement casts each column to its type
/// (`::bigint`, `::uuid`, `::timestamptz`), as the SQL folds cast the text they read from JSON.
struct TextColumn: PostgresNonThrowingEncodable, Sendable {
    /// The values, in row order.
    var values: [String?]

    static var psqlType: PostgresDataType { .textArray }
    static var psqlFormat: PostgresFormat { .binary }

    init(_ values: [String?]) { self.values = values }

    /// PostgreSQL's binary array: dimensions, NULL flag, element type, then each element as its
    /// length (-1 for NULL) and its bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let hasNull: Int32 = values.contains(where: { $0 == nil }) ? 1 : 0
        buffer.writeInteger(Int32(values.isEmpty ? 0 : 1))
        buffer.writeInteger(hasNull)
        buffer.writeInteger(Int32(bitPattern: PostgresDataType.text.rawValue))
        if !values.isEmpty {
            buffer.writeInteger(Int32(values.count))
            buffer.writeInteger(Int32(1))
        }
        for value in values {
            if let value {
                buffer.writeInteger(Int32(value.utf8.count))
                buffer.writeString(value)
            } else {
                buffer.writeInteger(Int32(-1))
            }
        }
    }
}
