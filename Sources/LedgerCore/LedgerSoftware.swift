/// Facts about this build of the software, printed in reports and recorded by the migrator.
public enum LedgerSoftware {
    /// The software version (semantic versioning).
    public static let version = "0.1.0"
    /// The product's name alone: what the server tells clients it has not authenticated (the
    /// `Server` header, `/health`), so that they do not learn which version to attack (issue 36).
    public static let product = "consent-ledger"
    /// `consent-ledger/<version>`, as recorded in `ledger.schema_version.software`.
    public static let name = "consent-ledger/\(version)"
}
