import LedgerCore
/// The three forms every report comes in, shared by the CLI (`--format`) and the HTTP API
/// (`?format=`), so both write the same bytes.
public enum ReportEncoding: String, CaseIterable, Sendable {
    /// The sealed canonical JSON, with a final newline.
    case json
    /// RFC 4180 CSV, one row per item.
    case csv
    /// One self-contained printable page, rendered from the sealed JSON (whose seal it shows).
    case html

    /// The report's bytes in this form, from its sealed JSON and its CSV; the HTML page names
    /// `policy`'s issuer and date of issue.
    public func bytes(json: [UInt8], csv: () -> String, policy: ReportPolicy = .defaults) throws -> [UInt8] {
        switch self {
        case .json: return json + [0x0A]
        case .csv: return Array(csv().utf8)
        case .html: return Array(try ReportHTML.render(try JSONParser.parse(json), policy: policy).utf8)
        }
    }

    /// The media type of this form.
    public var contentType: String {
        switch self {
        case .json: return "application/json"
        case .csv: return "text/csv; charset=utf-8; header=present"
        case .html: return "text/html; charset=utf-8"
        }
    }
}
