/// How often an age signal was asked for at download and launch in a regulator report (`coverage`),
/// titled by the laws that govern the scope.
public struct RegulatorCoverageSection: Codable, Sendable, Equatable {
    /// The section's title.
    public var title: String
    /// The laws that govern the whole scope.
    public var laws: [RegulatorLaw]
    /// The laws that govern parts of it.
    public var lawsForParts: [RegulatorLaw]
    /// Laws of the scope not in force in the period.
    public var lawsNotInForce: [RegulatorLaw]
    /// Installs in the period.
    public var installs: Int
    /// Of those, asked at download.
    public var requestedAtDownload: Int
    /// Asked at launch.
    public var requestedAtLaunch: Int
    /// The share asked at download; null without installs.
    @Nullable public var shareAtDownload: Double?
    /// The share asked at launch.
    @Nullable public var shareAtLaunch: Double?
    /// Existing installs asked afterwards.
    public var backfill: Backfill

    /// Existing installs and their age signals.
    public struct Backfill: Codable, Sendable, Equatable {
        /// Existing installs.
        public var existingInstalls: Int
        /// Of those, with an age signal.
        public var withAgeSignal: Int
        /// The share.
        @Nullable public var share: Double?
        /// Backfill requests.
        public var backfillRequests: Int
    }
}

/// The retention policy, its runs and the erasures in a regulator report (`retention`), titled by
/// the laws that govern the scope.
public struct RegulatorRetentionSection: Codable, Sendable, Equatable {
    /// The section's title.
    public var title: String
    /// The laws that govern the whole scope.
    public var laws: [RegulatorLaw]
    /// The laws that govern parts of it.
    public var lawsForParts: [RegulatorLaw]
    /// Laws of the scope not in force in the period.
    public var lawsNotInForce: [RegulatorLaw]
    /// The retention policy applied.
    public var policy: RegulatorRetentionPolicy
    /// Each retention run.
    public var retentionApplied: [Run]
    /// Each erasure.
    public var erasures: [Erasure]

    /// One retention run.
    public struct Run: Codable, Sendable, Equatable {
        /// The policy's id.
        public var policyId: String
        /// What it applied to.
        public var scope: String
        /// Why.
        public var reason: String
        /// Events before this time; null: none named.
        @Nullable public var cutoff: String?
        /// Subjects affected.
        public var subjects: Int
        /// When it ran.
        public var occurredAt: String
        /// Its positions.
        public var evidencePositions: [Int]
        /// Their ids.
        public var evidenceEventIds: [String]
    }

    /// One erasure.
    public struct Erasure: Codable, Sendable, Equatable {
        /// The subject.
        public var subject: String
        /// Why.
        public var reason: String
        /// When.
        public var occurredAt: String
        /// Its positions.
        public var evidencePositions: [Int]
        /// Their ids.
        public var evidenceEventIds: [String]
    }
}

/// A law of the catalogue as a regulator report names it.
public struct RegulatorLaw: Codable, Sendable, Equatable {
    /// The law's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its citation.
    public var citation: String
    /// Where it applies.
    public var jurisdictions: [String]
    /// When it took effect.
    @Nullable public var effective: String?
    /// The spans it is in force.
    public var inForce: [Span]
    /// Its status.
    public var status: String
    /// When the status was checked.
    public var statusChecked: String

    /// A span of time in force.
    public struct Span: Codable, Sendable, Equatable {
        /// From; null: always.
        @Nullable public var from: String?
        /// To; null: still.
        @Nullable public var to: String?
    }
}
