/// The report policy a regulator report applied (`policy`): which rules, where, and the windows.
public struct RegulatorPolicySection: Codable, Sendable, Equatable {
    /// Where the policy came from (`defaults` or the file).
    public var source: String
    /// The policy's id, when it names one.
    @Nullable public var policyId: String?
    /// The policy's version, when it names one.
    @Nullable public var policyVersion: String?
    /// Each rule, enabled or not, and where it applies.
    public var rules: [Rule]
    /// How long a rescission may take to be enforced.
    public var rescissionEnforcementWindowHours: Int
    /// After how many days an age signal must be asked again; null: never.
    @Nullable public var ageSignalRecheckDays: Int?
    /// The retention policy.
    public var retention: RegulatorRetentionPolicy

    /// One rule of the policy.
    public struct Rule: Codable, Sendable, Equatable {
        /// The rule's id.
        public var rule: String
        /// Whether it is applied.
        public var enabled: Bool
        /// The jurisdictions it applies in; null: everywhere.
        @Nullable public var jurisdictions: [String]?
    }
}

/// A retention policy: its id and what it says.
public struct RegulatorRetentionPolicy: Codable, Sendable, Equatable {
    /// The policy's id.
    public var policyId: String
    /// What it says, in words.
    public var statement: String
}
