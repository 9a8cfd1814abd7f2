import LedgerCore

/// The consent register as the sealed JSON document `consent-ledger report consent-register
/// --format json` writes (docs/reports/consent-register.schema.json): who approved what and when,
/// as of a log position. The JSON, the CSV and the HTML page are all made from this type.
public struct ConsentRegisterDocument: Codable, Sendable, Equatable {
    /// The value of `report` that names this kind.
    public static let kind = "consent-register"

    /// ``kind``.
    public var report: String
    /// What the report covers.
    public var parameters: Parameters
    /// Where it was computed.
    public var ledger: ReportLedger
    /// `consent-ledger/<version>`.
    public var software: String
    /// ``ConsentRegisterRow/columns``.
    public var columns: [String]
    /// How many rows.
    public var rowCount: Int
    /// One row per question or exception, in the order they were asked.
    public var rows: [ConsentRegisterRow]
    /// What a reader must know before trusting the rows.
    public var notices: [ReportNotice]
    /// The seal (``ReportSeal``): absent until sealed.
    public var sha256: String?

    /// What the register covers.
    public struct Parameters: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The last log position taken into account.
        public var asOf: Int64
        /// Only items asked at or after this time (RFC 3339).
        @Nullable public var from: String?
        /// Only items asked before this time.
        @Nullable public var to: String?
        /// Only this subject's items.
        @Nullable public var subject: String?
        /// The report policy's date of issue (`YYYY-MM-DD`).
        @Nullable public var dateOfIssue: String?

        /// The parameters as sealed.
        public init(log: String, asOf: Int64, from: String?, to: String?, subject: String?, dateOfIssue: String?) {
            self.log = log
            self.asOf = asOf
            self.from = from
            self.to = to
            self.subject = subject
            self.dateOfIssue = dateOfIssue
        }
    }

    /// An unsealed register of `rows`.
    public init(parameters: Parameters, ledger: ReportLedger, software: String, rows: [ConsentRegisterRow], notices: [ReportNotice]) {
        self.report = Self.kind
        self.parameters = parameters
        self.ledger = ledger
        self.software = software
        self.columns = ConsentRegisterRow.columns
        self.rowCount = rows.count
        self.rows = rows
        self.notices = notices
    }
}
