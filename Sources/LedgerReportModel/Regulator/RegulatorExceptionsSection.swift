/// Age-rating exceptions and installs in a regulator report's period (`exceptions`).
public struct RegulatorExceptionsSection: Codable, Sendable, Equatable {
    /// Installs by outcome.
    public var installsByOutcome: [ReportKeyCount]
    /// Devices' rating limits.
    public var deviceRatingLimits: [ReportKeyCount]
    /// Approvals in person.
    public var approveInPerson: ApproveInPerson
    /// Exceptions requested.
    public var requested: Int
    /// Approved by message.
    public var approvedByMessage: Int
    /// Approved in person.
    public var approvedInPerson: Int
    /// Declined.
    public var declined: Int
    /// By the rating asked for.
    public var byRatedAge: [RatedAge]

    /// The in-person approval sheet.
    public struct ApproveInPerson: Codable, Sendable, Equatable {
        /// Presented.
        public var presented: Int
        /// Failed.
        public var failed: Int
    }

    /// The exceptions of one rating.
    public struct RatedAge: Codable, Sendable, Equatable {
        /// The rating.
        public var ratedAge: String
        /// Requested.
        public var requested: Int
        /// Approved.
        public var approved: Int
        /// Declined.
        public var declined: Int
    }
}
