import Foundation

/// Why a feature was open or closed for a subject at a moment, with the events it rests on:
/// the latest `AccessGateApplied` for the feature by then (per app), the events that gate cited,
/// the subject's age signal at the time of the decision, what the ledger's rules found about the
/// decision, a rescission that came after it, and every earlier decision on the feature.
public struct FeatureExplanation: Sendable {
    /// The log.
    public var log: String
    /// The subject.
    public var subject: String
    /// The feature.
    public var feature: String
    /// The moment asked about.
    public var asOf: AsOf
    /// The last position the answer could include.
    public var throughPosition: Int64
    /// One answer per app that gated the feature for the subject (usually one).
    public var decisions: [Decision]
    /// The features the subject has by then, when this one was never gated (to help spot a typo).
    public var otherFeatures: [String]

    /// The standing decision of one app on the feature.
    public struct Decision: Sendable {
        /// The app (bundle id; empty when the event named none).
        public var app: String
        /// `open` or `closed`.
        public var state: String
        /// The gate event in force.
        public var gate: ReplayedEvent
        /// The events it cited, as found in the log.
        public var cited: [ReplayedEvent]
        /// Cited ids that are not in the log, or that come after the gate.
        public var citedProblems: [String]
        /// The subject's latest age signal before the gate (category, approvalRequired, position), if
        /// any. For an opening, from ``judgedOn``: `approvalRequired` is the rules' (consent required
        /// by DeclaredAgeRange, or approval by the parental controls).
        public var ageAtDecision: JSONValue
        /// For an opening: every fact the rules judged it on, as the anomalies projection recorded it
        /// beside its findings (nil for a closing).
        public var judgedOn: OpeningInputs?
        /// Every rule of the rules catalogue that judges this decision, passed or failed, with its evidence.
        public var rules: [RuleCheck]
        /// The parent's answers on record for the subject and app before the gate (approvals and denials
        /// of significant changes), oldest first: `denial of change c-rooms (#5)`.
        public var parentalAnswers: [String]
        /// A later ConsentRescinded for the app that the feature's state did not follow, if any.
        public var laterRescissions: [ReplayedEvent]
        /// Every decision on this feature by this app up to the moment, oldest first.
        public var history: [ReplayedEvent]

        /// A value from its parts (the storage module reads it from rows).
        package init(
            app: String,
            state: String,
            gate: ReplayedEvent,
            cited: [ReplayedEvent],
            citedProblems: [String],
            ageAtDecision: JSONValue,
            judgedOn: OpeningInputs? = nil,
            rules: [RuleCheck],
            parentalAnswers: [String],
            laterRescissions: [ReplayedEvent],
            history: [ReplayedEvent]
        ) {
            self.app = app
            self.state = state
            self.gate = gate
            self.cited = cited
            self.citedProblems = citedProblems
            self.ageAtDecision = ageAtDecision
            self.judgedOn = judgedOn
            self.rules = rules
            self.parentalAnswers = parentalAnswers
            self.laterRescissions = laterRescissions
            self.history = history
        }
    }

    /// One rule applied to a decision: failed (with the finding's detail and evidence), passed, or
    /// not applied because the policy turns it off or limits it to other jurisdictions.
    public struct RuleCheck: Sendable, Equatable {
        /// What became of the rule.
        public enum Outcome: String, Sendable {
            /// The decision broke it.
            case failed
            /// Nothing was found.
            case passed
            /// The policy does not apply it here (a finding, if any, is not counted).
            case notApplied
        }
        /// The rule's id in the rules catalogue (docs/rules.md).
        public var rule: String
        /// What became of it.
        public var outcome: Outcome
        /// Whether the decision broke it (and the policy applies it).
        public var failed: Bool { outcome == .failed }
        /// What was found, for a failed rule; the rule's statement, for a passed one; the policy's
        /// reason, for one not applied.
        public var detail: String
        /// The positions of the events the finding rests on (empty for a passed rule).
        public var evidence: [Int64]
        /// For a finding judged without a fact the rules need (the version the subject first used
        /// the app at), that fact in a sentence: the finding needs review (decision 0064).
        public var needsReview: String? = nil

        /// A value from its parts (the storage module reads it from rows).
        package init(rule: String, outcome: Outcome, detail: String, evidence: [Int64], needsReview: String? = nil) {
            self.rule = rule
            self.outcome = outcome
            self.detail = detail
            self.evidence = evidence
            self.needsReview = needsReview
        }
    }

    /// A value from its parts (the storage module reads it from rows).
    package init(log: String, subject: String, feature: String, asOf: AsOf, throughPosition: Int64, decisions: [Decision], otherFeatures: [String]) {
        self.log = log
        self.subject = subject
        self.feature = feature
        self.asOf = asOf
        self.throughPosition = throughPosition
        self.decisions = decisions
        self.otherFeatures = otherFeatures
    }
}
