/// A report's typed parts (Sources/LedgerReportModel) as JSON trees, with no JSON text in between:
/// what ``ReportSeal`` seals, ``ReportTable`` writes as CSV, and sections still assembled by hand
/// take from the typed ones.
public enum ReportJSON {
    /// `part`'s JSON tree, as RFC 8785 writes it: whole numbers as integers, a member left out when
    /// nil unless it is `Nullable`.
    /// - Throws: `EncodingError` for a number that is not finite.
    public static func value<Part: Encodable>(_ part: Part) throws -> JSONValue {
        try JSONValueEncoder.encode(part)
    }
}
