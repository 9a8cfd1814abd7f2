/// A report's rows (JSON objects) as CSV: one record per row, one field per column. A string is
/// written as it is, a number or boolean as in JSON, a list of strings or numbers joined by spaces,
/// an absent or null value as an empty field, and anything else (an object, a nested list) as its
/// canonical JSON.
public enum ReportTable {
    /// The CSV document (RFC 4180) of `rows` under the header `columns`.
    public static func csv(rows: [JSONValue], columns: [String]) -> String {
        CSVWriter.document(header: columns, rows: rows.map { row in columns.map { field(row[$0]) } })
    }

    /// The CSV document (RFC 4180) of typed `rows` (a report document's rows) under the header
    /// `columns`, each row's members written as ``field(_:)`` writes them.
    public static func csv<Row: Encodable>(rows: [Row], columns: [String]) -> String {
        csv(rows: rows.map { row in
            do {
                return try ReportJSON.value(row)
            } catch {
                // Report rows hold strings, integers, Booleans and lists of them, which always encode.
                preconditionFailure("a report row does not encode as JSON: \(error)")
            }
        }, columns: columns)
    }

    /// One value as a CSV field's text.
    public static func field(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let text)?: return text
        case .bool(let flag)?: return flag ? "true" : "false"
        case .array(let items)? where items.allSatisfy(isScalar):
            return items.map { $0.stringValue ?? CanonicalJSON.encodeString($0) }.joined(separator: " ")
        case let other?: return CanonicalJSON.encodeString(other)
        }
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number: return true
        default: return false
        }
    }
}
