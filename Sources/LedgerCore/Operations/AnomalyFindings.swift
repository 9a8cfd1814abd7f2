import Foundation

/// The findings of a log (the anomalies projection's rule violations and anomalies), newest first,
/// for the console's list: each with the event it was found on and every event it rests on.
public enum AnomalyFindings {
    /// One finding.
    public struct Finding: Sendable, Equatable {
        /// The rule's id (``RuleCatalogue``).
        public var rule: String
        /// `violation` or `anomaly`.
        public var kind: LedgerRule.Kind
        /// The event it was found on.
        public var position: Int64
        /// Its subject, when it has one.
        public var subject: String?
        /// What was found.
        public var detail: String
        /// Every event it rests on, in log order.
        public var evidence: [Int64]

        /// A finding from its parts.
        public init(rule: String, kind: LedgerRule.Kind, position: Int64, subject: String?, detail: String, evidence: [Int64]) {
            self.rule = rule
            self.kind = kind
            self.position = position
            self.subject = subject
            self.detail = detail
            self.evidence = evidence
        }
    }
}
