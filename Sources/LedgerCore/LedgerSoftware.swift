/// Facts about this build of the software, printed in reports and recorded by the migrator.
public enum LedgerSoftware {
    /// The software version (semantic versioning).
    public static let version = "0.1.0"
    /// `consent-ledger/<version>`, as recorded in `ledger.schema_version.software`.
    public static let name = "consent-ledger/\(version)"
}
