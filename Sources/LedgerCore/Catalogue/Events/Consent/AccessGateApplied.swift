/// `AccessGateApplied`: the app opened or closed a feature for the subject, citing the events it
/// relied on and the policy version it applied. This makes "was access lawful at time T?"
/// answerable.
public struct AccessGateApplied: EventPayload {
    /// `AccessGateApplied`.
    public static let eventType = "AccessGateApplied"
    /// 1.
    public static let schemaVersion = 1

    /// The feature gated.
    public var feature: String
    /// Whether it is now open or closed.
    public var state: State
    /// The event ids the decision relied on.
    public var basis: [String]
    /// The version of the app's access policy applied.
    public var policyVersion: String

    /// A gate's state.
    public enum State: String, CatalogueValue {
        /// The feature is available to the subject.
        case open
        /// The feature is not available to the subject.
        case closed
    }

    /// Creates the payload.
    public init(feature: String, state: State, basis: [String], policyVersion: String) {
        self.feature = feature
        self.state = state
        self.basis = basis
        self.policyVersion = policyVersion
    }
}

extension AccessGateApplied {
    /// The schema.
    public static let schema = EventSchema(
        AccessGateApplied.self, group: .consent,
        summary: "The app opened or closed a feature for the subject, citing the events the decision relied on and the policy "
            + "version. Opening with an empty basis is stored, and reported as an anomaly.",
        fields: [
            .required("feature", .token(.identifier), "The feature gated (the app's own name for it)."),
            .required("state", .oneOf(State.self), "Whether the feature is now open or closed."),
            .required("basis", .array(of: .token(.uuid), count: 0...50, unique: true), "The ids of the events the decision relied on."),
            .required("policyVersion", .token(.version), "The version of the access policy applied."),
        ],
        examples: [[
            "feature": "sharedRooms", "state": "open", "policyVersion": "2026-11",
            "basis": ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d03", "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06"],
        ]]
    )
}

extension AccessGateApplied {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let basis = p.strings("basis")
        return "The app \(p.string("state") == "open" ? "OPENED" : "CLOSED") feature \(p.string("feature") ?? "?") "
            + "(policy \(p.string("policyVersion") ?? "?")), citing "
            + (basis.isEmpty ? "no event." : "\(basis.count) event\(basis.count == 1 ? "" : "s"): \(basis.joined(separator: ", ")).")
    }
}

extension AccessGateApplied {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .accessGateApplied(self) }
}
