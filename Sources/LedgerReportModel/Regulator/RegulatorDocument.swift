import LedgerCore

/// The regulator report as the sealed JSON document `consent-ledger report regulator --format json`
/// writes (docs/reports/regulator.schema.json): one jurisdiction, one period, as of a log position.
/// The JSON, the CSV and the HTML page are all made from this type.
public struct RegulatorDocument: Codable, Sendable, Equatable {
    /// The value of `report` that names this kind.
    public static let kind = "regulator"

    /// ``kind``.
    public var report: String
    /// What the report covers.
    public var parameters: Parameters
    /// Where it was computed.
    public var ledger: ReportLedger
    /// `consent-ledger/<version>`.
    public var software: String
    /// The report policy applied.
    public var policy: RegulatorPolicySection
    /// The jurisdiction, what it takes in, and the period's events.
    public var scope: RegulatorScopeSection
    /// The age signals asked for and given.
    public var ageSignals: RegulatorAgeSignalsSection
    /// Questions to parents, their outcomes, and rescissions.
    public var consent: RegulatorConsentSection
    /// Each significant change and who was asked about it.
    public var significantChanges: [RegulatorSignificantChangeRow]
    /// Age-rating exceptions and installs.
    public var exceptions: RegulatorExceptionsSection
    /// The violations of the ledger's rules, with their evidence.
    public var violations: [RegulatorViolationRow]
    /// How often an age signal was asked for at download and launch.
    public var coverage: RegulatorCoverageSection
    /// The retention policy, its runs and the erasures.
    public var retention: RegulatorRetentionSection
    /// Whether the records the report was computed from are the ones the ledger signed.
    public var integrity: RegulatorIntegritySection
    /// What a reader must know before trusting the figures.
    public var notices: [ReportNotice]
    /// The seal (``ReportSeal``): absent until sealed.
    public var sha256: String?

    /// An unsealed report of these sections.
    public init(parameters: Parameters, ledger: ReportLedger, software: String, policy: RegulatorPolicySection, scope: RegulatorScopeSection,
                ageSignals: RegulatorAgeSignalsSection, consent: RegulatorConsentSection, significantChanges: [RegulatorSignificantChangeRow],
                exceptions: RegulatorExceptionsSection, violations: [RegulatorViolationRow], coverage: RegulatorCoverageSection,
                retention: RegulatorRetentionSection, integrity: RegulatorIntegritySection, notices: [ReportNotice]) {
        self.report = Self.kind
        self.parameters = parameters
        self.ledger = ledger
        self.software = software
        self.policy = policy
        self.scope = scope
        self.ageSignals = ageSignals
        self.consent = consent
        self.significantChanges = significantChanges
        self.exceptions = exceptions
        self.violations = violations
        self.coverage = coverage
        self.retention = retention
        self.integrity = integrity
        self.notices = notices
    }

    /// What the report covers.
    public struct Parameters: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// The jurisdiction's code.
        public var jurisdiction: String
        /// The period's start, included (RFC 3339).
        public var from: String
        /// The period's end, excluded.
        public var to: String
        /// The last log position taken into account.
        public var asOf: Int64

        /// The parameters as sealed.
        public init(log: String, jurisdiction: String, from: String, to: String, asOf: Int64) {
            self.log = log
            self.jurisdiction = jurisdiction
            self.from = from
            self.to = to
            self.asOf = asOf
        }
    }
}

/// A count of one key (a trigger, an outcome, a status, …): the regulator report's lists of counts.
public struct ReportKeyCount: Codable, Sendable, Equatable {
    /// What is counted.
    public var key: String
    /// How many.
    public var count: Int
}
