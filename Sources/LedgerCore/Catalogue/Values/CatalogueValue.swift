/// A Swift enum whose cases are the allowed values of a string field, spelled as the platform
/// spells them. `FieldKind.oneOf(Value.self)` builds a field's allowed values from it, so
/// the Swift type and the schema list the same values.
public protocol CatalogueValue: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {
    /// Cases the platform no longer produces; still accepted.
    static var deprecatedValues: Set<Self> { get }
}

extension CatalogueValue {
    /// None.
    public static var deprecatedValues: Set<Self> { [] }
}

/// A Swift enum whose cases are the allowed codes of an integer field, each with a label.
public protocol CatalogueCode: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == Int {
    /// What the code means, for people (`13+`).
    var label: String { get }
}

/// A parent's answer to a PermissionKit question (`PermissionChoice.Answer`).
public enum PermissionAnswer: String, CatalogueValue {
    /// The choice approves the request.
    case approval
    /// The choice denies the request.
    case denial
}

/// How a guardian's decision reached the app: by a message (Messages, Ask to Buy style) or on the
/// child's device in person.
public enum DecisionChannel: String, CatalogueValue {
    /// Answered from the guardian's own device, through Messages.
    case message
    /// Answered on the child's device, in person (with the guardian's authentication).
    case inPerson
}
