/// One significant change in a regulator report, and who was asked about it (`significantChanges[]`).
public struct RegulatorSignificantChangeRow: Codable, Sendable, Equatable {
    /// The change's id.
    public var changeId: String
    /// The app.
    @Nullable public var app: String?
    /// The version that introduced it.
    @Nullable public var introducedInVersion: String?
    /// When it was declared.
    @Nullable public var declaredAt: String?
    /// When it was notified to the store.
    @Nullable public var notifiedToStoreAt: String?
    /// Minors asked about it.
    public var minorsAsked: Int
    /// Approved.
    public var approved: Int
    /// Denied.
    public var denied: Int
    /// Adults who acknowledged it.
    public var adultsAcknowledged: Int
    /// The positions it rests on.
    public var evidencePositions: [Int]
    /// Their ids.
    public var evidenceEventIds: [String]
}
