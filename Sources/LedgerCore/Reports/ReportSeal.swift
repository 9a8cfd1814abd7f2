/// Makes a JSON report reproducible and attributable: the report object is written in RFC 8785
/// canonical form (the same inputs give the same bytes), and its member `sha256` is the SHA-256 of
/// the canonical form of the object without that member, so anyone can check it by removing the
/// member and hashing again.
public enum ReportSeal {
    /// The member that carries the seal.
    public static let member = "sha256"

    /// `report` with its seal, as canonical JSON bytes, and the seal.
    public static func seal(_ report: [String: JSONValue]) -> (bytes: [UInt8], sha256: String) {
        var unsealed = report
        unsealed.removeValue(forKey: member)
        let digest = LedgerHash.hex(LedgerHash.sha256(CanonicalJSON.encode(.object(unsealed))))
        var sealed = unsealed
        sealed[member] = .string(digest)
        return (CanonicalJSON.encode(.object(sealed)), digest)
    }

    /// The typed `report` (a report document, Sources/LedgerReportModel) with its seal, as canonical
    /// JSON bytes, and the seal: the same bytes as ``seal(_:)`` of its JSON object.
    public static func seal<Report: Encodable>(encodable report: Report) throws -> (bytes: [UInt8], sha256: String) {
        guard case .object(let members) = try ReportJSON.value(report) else {
            throw EncodingError.invalidValue(report, .init(codingPath: [], debugDescription: "a report is a JSON object"))
        }
        return seal(members)
    }

    /// Whether a report's `sha256` member matches the rest of it.
    public static func verify(_ report: JSONValue) -> Bool {
        guard case .object(var members) = report, let claimed = members.removeValue(forKey: member)?.stringValue else {
            return false
        }
        return LedgerHash.hex(LedgerHash.sha256(CanonicalJSON.encode(.object(members)))) == claimed
    }
}
