import LedgerCore

/// The subject dossier as the sealed JSON document `consent-ledger report dossier --format json`
/// writes (docs/reports/subject-dossier.schema.json): one subject's whole history in order, what
/// the ledger's rules found about it, and the events those findings cite from outside it, as of a
/// log position. The JSON, the CSV and the HTML page are all made from this type.
public struct SubjectDossierDocument: Codable, Sendable, Equatable {
    /// The value of `report` that names this kind.
    public static let kind = "subject-dossier"

    /// ``kind``.
    public var report: String
    /// Whose dossier, as of when.
    public var parameters: Parameters
    /// What a reader must know before trusting the history.
    public var notices: [ReportNotice]
    /// Where it was computed.
    public var ledger: ReportLedger
    /// `consent-ledger/<version>`.
    public var software: String
    /// ``SubjectDossierStep/columns``.
    public var columns: [String]
    /// How many steps.
    public var stepCount: Int
    /// The subject's events in the order the ledger recorded them, each with the state after it.
    public var steps: [SubjectDossierStep]
    /// What the ledger's rules found about the subject's events.
    public var findings: [SubjectDossierFinding]
    /// The events the findings cite that are not the subject's own.
    public var citedEvents: [SubjectDossierEvent]
    /// The seal (``ReportSeal``): absent until sealed.
    public var sha256: String?

    /// Whose dossier, as of when.
    public struct Parameters: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The subject's pseudonym.
        public var subject: String
        /// The last log position taken into account.
        public var asOf: Int64
        /// The report policy's date of issue (`YYYY-MM-DD`).
        @Nullable public var dateOfIssue: String?

        /// The parameters as sealed.
        public init(log: String, subject: String, asOf: Int64, dateOfIssue: String?) {
            self.log = log
            self.subject = subject
            self.asOf = asOf
            self.dateOfIssue = dateOfIssue
        }
    }

    /// An unsealed dossier of `steps`.
    public init(parameters: Parameters, notices: [ReportNotice], ledger: ReportLedger, software: String, steps: [SubjectDossierStep],
                findings: [SubjectDossierFinding], citedEvents: [SubjectDossierEvent]) {
        self.report = Self.kind
        self.parameters = parameters
        self.notices = notices
        self.ledger = ledger
        self.software = software
        self.columns = SubjectDossierStep.columns
        self.stepCount = steps.count
        self.steps = steps
        self.findings = findings
        self.citedEvents = citedEvents
    }
}
