import Foundation

/// What a fold takes in: a range of one log (``FoldRange``) and, for time travel and replay, which
/// of its events (``Filter``). `FoldInput.foldRange` (Folds/SwiftFolds.swift) is the one way every
/// use folds a range.
public enum FoldInput {
    /// Which events of a range to take, beyond their types: for time travel and replay.
    public struct Filter: Sendable, Equatable {
        /// Only events about this subject (and events about no subject, such as a declared change).
        public var subject: String?
        /// Only events the ledger recorded at or before this instant.
        public var recordedBy: Date?
        /// Only events that occurred (device clock) at or before this instant.
        public var occurredBy: Date?

        /// No filter: every event of the range.
        public static let none = Filter()

        /// Creates a filter.
        public init(subject: String? = nil, recordedBy: Date? = nil, occurredBy: Date? = nil) {
            self.subject = subject
            self.recordedBy = recordedBy
            self.occurredBy = occurredBy
        }
    }
}
