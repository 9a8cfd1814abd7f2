import Foundation

/// One recorded verification of a log (`ledger.verifications`): what `consent-ledger verify` and
/// the console's "Verify now" found, when, and who ran it.
public struct VerificationRecord: Sendable, Equatable {
    /// When (UTC, RFC 3339).
    public var verifiedAt: String
    /// `full`, `since-checkpoint` or `projections`.
    public var scope: String
    /// Whether every check passed.
    public var passed: Bool
    /// How many events were re-hashed.
    public var eventsChecked: Int64
    /// The head then (for `projections`: the position every projection was proven to).
    public var headPosition: Int64
    /// One sentence: what was verified, or the first thing that failed.
    public var summary: String
    /// Who ran it: an API key id, or `cli/<user>`.
    public var verifiedBy: String

    /// A record from its parts.
    public init(verifiedAt: String = "", scope: String, passed: Bool, eventsChecked: Int64, headPosition: Int64, summary: String, verifiedBy: String) {
        self.verifiedAt = verifiedAt
        self.scope = scope
        self.passed = passed
        self.eventsChecked = eventsChecked
        self.headPosition = headPosition
        self.summary = summary
        self.verifiedBy = verifiedBy
    }
}
