/// Whether the records a regulator report was computed from are the ones the ledger signed
/// (`integrity`; docs/reliability.md, "What a report's integrity section proves").
public struct RegulatorIntegritySection: Codable, Sendable, Equatable {
    /// The signed checkpoint relied on; null when none is at or below the report's position.
    @Nullable public var checkpoint: ReportCheckpoint?
    /// The first position re-hashed.
    public var verifiedFrom: Int64
    /// The last position re-hashed (the report's position).
    public var verifiedThrough: Int64
    /// Cited positions before ``verifiedFrom``, each re-hashed and proved in the checkpoint's tree.
    public var citedProved: Int64
    /// The newest `consent-ledger verify --projections` that proved the projections equal to the log.
    @Nullable public var projectionsProven: ProjectionsProven?
    /// Whether every check passed.
    public var passed: Bool
    /// The first problem found.
    @Nullable public var problem: String?
    /// What the check recomputed and what it relied on.
    public var method: String

    /// A `verify --projections` that passed.
    public struct ProjectionsProven: Codable, Sendable, Equatable {
        /// When it ran.
        public var verifiedAt: String
        /// To which position.
        public var position: Int64

        /// A proof of the projections.
        public init(verifiedAt: String, position: Int64) {
            self.verifiedAt = verifiedAt
            self.position = position
        }
    }

    /// The section.
    public init(checkpoint: ReportCheckpoint?, verifiedFrom: Int64, verifiedThrough: Int64, citedProved: Int64,
                projectionsProven: ProjectionsProven?, passed: Bool, problem: String?, method: String) {
        self.checkpoint = checkpoint
        self.verifiedFrom = verifiedFrom
        self.verifiedThrough = verifiedThrough
        self.citedProved = citedProved
        self.projectionsProven = projectionsProven
        self.passed = passed
        self.problem = problem
        self.method = method
    }
}
