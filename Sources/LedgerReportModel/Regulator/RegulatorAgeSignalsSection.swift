/// The age signals a regulator report counts (`ageSignals`).
public struct RegulatorAgeSignalsSection: Codable, Sendable, Equatable {
    /// Responses by the parental controls they named.
    public var responsesByParentalControl: [ReportKeyCount]
    /// Eligibility checks by outcome.
    public var eligibilityChecks: [ReportKeyCount]
    /// Requests by what triggered them.
    public var requestsByTrigger: [ReportKeyCount]
    /// Responses by age category, by platform.
    public var responsesByCategory: [CategoryCount]
    /// Responses by declaration.
    public var responsesByDeclaration: [ReportKeyCount]
    /// Requests declined.
    public var declines: Int
    /// Requests failed, by error.
    public var failures: [ReportKeyCount]
    /// Google Play's signals by user status.
    public var playSignalsByStatus: [ReportKeyCount]
    /// Age checks by method and result.
    public var ageChecksByMethod: [MethodCount]

    /// Responses of one age category.
    public struct CategoryCount: Codable, Sendable, Equatable {
        /// The category.
        public var key: String
        /// From Apple's DeclaredAgeRange.
        public var declaredAgeRange: Int
        /// From Google Play.
        public var play: Int
        /// Both.
        public var count: Int
    }

    /// Age checks of one method.
    public struct MethodCount: Codable, Sendable, Equatable {
        /// The method.
        public var key: String
        /// Passed.
        public var passed: Int
        /// Failed.
        public var failed: Int
        /// Inconclusive.
        public var inconclusive: Int
        /// All.
        public var count: Int
    }
}
