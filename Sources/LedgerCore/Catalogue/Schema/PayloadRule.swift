/// A rule about several fields of one payload, checked after every field has the right kind.
///
/// Rules are data, like fields: the validator checks them and the catalogue documents them
/// from the same value (``description``).
public enum PayloadRule: Sendable, Equatable {
    /// Exactly one of the fields is present.
    case exactlyOne(of: [String])
    /// At least one of the fields is present.
    case atLeastOne(of: [String])
    /// `field` may be present only when `other` is present.
    case requires(String, other: String)
    /// `field` must be present when `other` has one of `values`.
    case requiredWhen(String, other: String, isOneOf: [String])
    /// `field` may be present only when `other` has one of `values`.
    case onlyWhen(String, other: String, isOneOf: [String])
    /// When both are present, `lower` is not above `upper`.
    case orderedBounds(lower: String, upper: String)
    /// The range from `lower` (or `floor` when `lower` is absent) to `upper` (inclusive; no limit
    /// when absent) spans at least `years` whole years.
    case minimumSpan(lower: String, upper: String, floor: Int, years: Int)
    /// The age gates of a DeclaredAgeRange request: strictly increasing, and every range they
    /// make, including the one below the first gate, spans at least `years` years.
    case ageGates(String, years: Int)
    /// In the array of objects `array`, no two elements have the same `key`.
    case uniqueMembers(array: String, key: String)
    /// `field`, when present, equals the `key` of one element of the array of objects `array`.
    case memberReference(String, array: String, key: String)

    /// The rule in one sentence, for the catalogue.
    public var description: String {
        func code(_ name: String) -> String { "`\(name)`" }
        func list(_ names: [String]) -> String { names.map(code).joined(separator: ", ") }
        switch self {
        case .exactlyOne(let fields):
            return "Exactly one of \(list(fields)) is present."
        case .atLeastOne(let fields):
            return "At least one of \(list(fields)) is present."
        case .requires(let field, let other):
            return "\(code(field)) is present only together with \(code(other))."
        case .requiredWhen(let field, let other, let values):
            return "\(code(field)) is required when \(code(other)) is \(list(values))."
        case .onlyWhen(let field, let other, let values):
            return "\(code(field)) is allowed only when \(code(other)) is \(list(values))."
        case .orderedBounds(let lower, let upper):
            return "\(code(lower)) is not above \(code(upper))."
        case .minimumSpan(let lower, let upper, let floor, let years):
            return "The range \(code(lower))...\(code(upper)) (both inclusive; a missing \(code(lower)) means \(floor), "
                + "a missing \(code(upper)) means no upper limit) spans at least \(years) years: "
                + "a range of one year would be an exact age."
        case .ageGates(let field, let years):
            return "\(code(field)) strictly increase, and every range they make spans at least \(years) years: "
                + "consecutive gates differ by at least \(years) (13, 15 is allowed, 13, 14 is not), and the first gate is "
                + "at least \(years), since the range below it runs from 0 to the first gate minus 1. "
                + "The range at or above the last gate has no upper limit."
        case .uniqueMembers(let array, let key):
            return "No two elements of \(code(array)) have the same \(code(key))."
        case .memberReference(let field, let array, let key):
            return "\(code(field)), when present, is the \(code(key)) of one of \(code(array))."
        }
    }
}
