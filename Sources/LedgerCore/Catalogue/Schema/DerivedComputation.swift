/// How a derived fact is computed from a payload, as data: the database computes the same facts
/// from it (`CatalogueSQL` (LedgerGenerators)), so it never has to trust the `derived` member a client sends.
///
/// The Swift payload types compute their facts in code (``EventPayload/derivedFacts``); a test
/// checks over many payloads that the two agree.
public enum DerivedComputation: Sendable, Equatable {
    /// The ``LegalCategory`` of the range `lower...upper` (fields of the payload; absent means no
    /// limit), or `unknown` unless `condition` holds.
    case legalCategory(lower: String, upper: String, condition: FieldCondition?)
    /// `true` when the event's `legalCategory` fact is `adult` and `field` is one of `values`.
    case verifiedAdult(field: String, isOneOf: [String])
    /// The ``AgeRatingCode`` label of the code in `field`; no fact when the field is absent.
    case ratingLabel(of: String)

    /// The payload fields the computation reads.
    public var fieldsRead: [String] {
        switch self {
        case .legalCategory(let lower, let upper, let condition): return [lower, upper] + (condition.map { [$0.field] } ?? [])
        case .verifiedAdult(let field, _): return [field]
        case .ratingLabel(let field): return [field]
        }
    }
}

/// A payload field holding one string value (`outcome` is `passed`).
public struct FieldCondition: Sendable, Hashable {
    /// The payload field.
    public let field: String
    /// The value it must hold.
    public let value: String

    /// Creates a condition.
    public init(_ field: String, is value: String) {
        self.field = field
        self.value = value
    }
}
