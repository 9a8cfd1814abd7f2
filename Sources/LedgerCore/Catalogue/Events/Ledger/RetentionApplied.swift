/// `RetentionApplied`: the ledger erased data or destroyed keys under the written retention
/// policy (COPPA 16 CFR 312.10).
public struct RetentionApplied: EventPayload {
    /// `RetentionApplied`.
    public static let eventType = "RetentionApplied"
    /// 1.
    public static let schemaVersion = 1

    /// The retention policy applied.
    public var policyId: String
    /// What was erased.
    public var scope: Scope
    /// Why.
    public var reason: Reason
    /// Data recorded before this instant was in scope, when the policy works by age.
    public var cutoff: String?
    /// The subjects affected, when the policy names them.
    public var subjectIds: [String]?

    /// What a retention run erases.
    public enum Scope: String, CatalogueValue {
        /// Subjects' keys were destroyed: their personal fields became unreadable.
        case subjectKeys
        /// Personal fields were erased.
        case personalFields
        /// Rows of projections (read models) were deleted.
        case projectionRows
        /// Exported reports were deleted.
        case reportExports
    }

    /// Why a retention run erased something.
    public enum Reason: String, CatalogueValue {
        /// The retention period elapsed.
        case retentionPeriodElapsed
        /// The purpose the data was kept for is fulfilled.
        case purposeFulfilled
        /// The account was closed.
        case accountClosed
        /// Someone asked for erasure.
        case erasureRequest
    }

    /// Creates the payload.
    public init(policyId: String, scope: Scope, reason: Reason, cutoff: String? = nil, subjectIds: [String]? = nil) {
        self.policyId = policyId
        self.scope = scope
        self.reason = reason
        self.cutoff = cutoff
        self.subjectIds = subjectIds
    }
}

extension RetentionApplied {
    /// The schema.
    public static let schema = EventSchema(
        RetentionApplied.self, group: .ledger,
        summary: "Data was erased or keys destroyed under the written retention policy (COPPA 16 CFR 312.10): which policy, "
            + "what and why.",
        fields: [
            .required("policyId", .token(.identifier), "The retention policy applied."),
            .required("scope", .oneOf(Scope.self), "What was erased."),
            .required("reason", .oneOf(Reason.self), "Why."),
            .optional("cutoff", .token(.timestamp), "Data recorded before this instant was in scope."),
            .optional("subjectIds", .array(of: .token(.pseudonym), count: 1...1000, unique: true), "The subjects affected."),
        ],
        appenders: [EventAppender(.retention, actors: ["ledger", "operator"])],
        examples: [[
            "policyId": "retention-2026-01", "scope": "subjectKeys", "reason": "retentionPeriodElapsed",
            "cutoff": "2025-11-22T00:00:00Z", "subjectIds": ["p_11aa", "p_22bb"],
        ]]
    )
}

extension RetentionApplied {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "Retention policy \(p.string("policyId") ?? "?") erased \(p.string("scope") ?? "?") (\(p.string("reason") ?? "?"))."
    }
}

extension RetentionApplied {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .retentionApplied(self) }
}
