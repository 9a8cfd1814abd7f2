/// CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field quoted when it
/// holds a comma, a double quote, CR or LF (a quote inside doubled). The first record is the header.
///
/// A field that a spreadsheet would take for a formula (one starting with `=`, `+`, `-`, `@`, a tab
/// or a carriage return, and not a plain number such as `-5` or `+1.5`) is written with a leading
/// apostrophe, as OWASP advises against CSV injection: a reader opening a report in Excel or Sheets
/// sees the text, and no cell of a subject's data or an app's free text runs as a formula.
///
/// ```swift
/// CSVWriter.document(header: ["a", "b"], rows: [["1", "x, y"]])   // "a,b\r\n1,\"x, y\"\r\n"
/// ```
public enum CSVWriter {
    /// One field, neutralised when a spreadsheet would run it as a formula, quoted when it must be.
    public static func field(_ text: String) -> String {
        let value = isFormula(text) ? "'" + text : text
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet would read `text` as a formula: it starts with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return, and is not a plain decimal number.
    static func isFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return false }
        let digits = text.unicodeScalars.dropFirst()
        let plainNumber = first != "=" && first != "@" && !digits.isEmpty
            && digits.allSatisfy { ("0"..."9").contains($0) || $0 == "." } && digits.filter { $0 == "." }.count <= 1
            && digits.first != "." && digits.last != "."
        return !plainNumber
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
