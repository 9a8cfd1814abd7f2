/// CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field quoted when it
/// holds a comma, a double quote, CR or LF (a quote inside doubled). The first record is the header.
///
/// ```swift
/// CSVWriter.document(header: ["a", "b"], rows: [["1", "x, y"]])   // "a,b\r\n1,\"x, y\"\r\n"
/// ```
public enum CSVWriter {
    /// One field, quoted when it must be.
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A header record followed by the rows.
    public static func document(header: [String], rows: [[String]]) -> String {
        var text = record(header)
        for row in rows {
            precondition(row.count == header.count, "a CSV row has \(row.count) fields, the header \(header.count)")
            text += record(row)
        }
        return text
    }
}
