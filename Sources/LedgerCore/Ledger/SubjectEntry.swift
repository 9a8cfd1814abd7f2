/// One subject as the subject directory lists it (`consent-ledger subjects`, `GET …/subjects`):
/// what the live projections know of it.
///
/// ```json
/// {"subject":"p_7f3a9c","ageCategory":"13to15","erased":false,"consentItems":3,"denials":1,
///  "rescissions":0,"violations":0,"lastPosition":1042}
/// ```
public struct SubjectEntry: Codable, Sendable, Equatable {
    /// The pseudonym.
    public var subject: String
    /// The age category of the latest age signal (`under13`, `13to15`, `16to17`, `18toMajority`, `adult`,
    /// `unknown`), nil (written as null) without one.
    public var ageCategory: String?
    /// Whether the subject was erased (their personal data's key destroyed).
    public var erased: Bool
    /// Questions and exceptions on record for the subject.
    public var consentItems: Int64
    /// How many of them a parent denied.
    public var denials: Int64
    /// Consents rescinded.
    public var rescissions: Int64
    /// Rule violations found.
    public var violations: Int64
    /// The newest position the projections hold for the subject.
    public var lastPosition: Int64

    /// An entry from its parts.
    public init(subject: String, ageCategory: String?, erased: Bool, consentItems: Int64, denials: Int64, rescissions: Int64,
                violations: Int64, lastPosition: Int64) {
        self.subject = subject
        self.ageCategory = ageCategory
        self.erased = erased
        self.consentItems = consentItems
        self.denials = denials
        self.rescissions = rescissions
        self.violations = violations
        self.lastPosition = lastPosition
    }

    /// Writes `ageCategory` as null when there is none: readers may rely on every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(ageCategory, forKey: .ageCategory)
        try container.encode(erased, forKey: .erased)
        try container.encode(consentItems, forKey: .consentItems)
        try container.encode(denials, forKey: .denials)
        try container.encode(rescissions, forKey: .rescissions)
        try container.encode(violations, forKey: .violations)
        try container.encode(lastPosition, forKey: .lastPosition)
    }
}
