import Foundation

/// What a subject's history must hold to be listed.
public enum SubjectMark: String, Sendable, CaseIterable {
    /// A parent denied a question or an age-rating exception (consent_register).
    case denial
    /// A consent was rescinded (App Store RESCIND_CONSENT; anomalies' rescissions).
    case rescission
    /// A rule of the ledger was broken (anomalies' violations).
    case violation
}

/// One page of a listing, in pseudonym order.
public struct SubjectListing: Sendable, Equatable {
    /// The most one page holds.
    public static let maxLimit = 1_000

    /// The subjects.
    public var entries: [SubjectEntry]
    /// The pseudonym to pass as `after` for the next page; nil on the last page.
    public var next: String?
    /// The position every projection read has folded (the lowest of them).
    public var projectedThrough: Int64
    /// The log's head.
    public var head: Int64

    /// A page from its parts.
    public init(entries: [SubjectEntry], next: String?, projectedThrough: Int64, head: Int64) {
        self.entries = entries
        self.next = next
        self.projectedThrough = projectedThrough
        self.head = head
    }
}
