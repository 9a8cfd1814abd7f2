/// What a regulator report's jurisdiction takes in, and the period's events there (`scope`).
public struct RegulatorScopeSection: Codable, Sendable, Equatable {
    /// The jurisdiction's code.
    public var code: String
    /// Its name.
    public var name: String
    /// `country`, `subdivision` or `union`.
    public var kind: String
    /// A union's member states.
    public var members: [String]
    /// Whether the subdivisions are taken in.
    public var withSubdivisions: Bool
    /// The date the union's membership is as of.
    @Nullable public var membersAsOf: String?
    /// How many codes it takes in.
    public var codesTakenIn: Int
    /// Events that occurred in the period.
    public var eventsInPeriod: Int
    /// Of those, events in the jurisdiction.
    public var eventsInJurisdiction: Int
    /// Those by environment.
    public var eventsByEnvironment: [ReportKeyCount]
    /// Events in the period that name no jurisdiction.
    public var eventsWithoutJurisdiction: Int
    /// Events in the period that name a code the catalogue does not know.
    public var eventsWithUnknownJurisdiction: Int
    /// Those codes.
    public var unknownCodes: [UnknownCode]

    /// A code the catalogue does not know, and the events that name it.
    public struct UnknownCode: Codable, Sendable, Equatable {
        /// The code.
        public var code: String
        /// How many events.
        public var events: Int
        /// Their positions.
        public var evidencePositions: [Int]
        /// Their ids.
        public var evidenceEventIds: [String]
    }
}
