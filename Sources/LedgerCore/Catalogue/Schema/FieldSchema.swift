/// One field of an event payload: its name, kind, whether it is required, what it means and
/// whether it is personal data.
///
/// ```swift
/// FieldSchema.required("questionId", .token(.uuid), "The question's id, from PermissionKit.")
/// FieldSchema.optional("reason", .text(maxLength: 2000), "Why.", personal: true)
/// ```
public struct FieldSchema: Sendable, Equatable {
    /// The JSON member name, spelled as the platform API spells it.
    public let name: String
    /// What the field may hold.
    public let kind: FieldKind
    /// Whether the field must be present (and not `null`). Optional fields may be omitted or `null`.
    public let isRequired: Bool
    /// A one-line description.
    public let summary: String
    /// Whether the field is personal data: encrypted with the subject's key before hashing, and
    /// unreadable after the subject is erased.
    public let isPersonalData: Bool

    /// Creates a field.
    public init(name: String, kind: FieldKind, isRequired: Bool, summary: String, isPersonalData: Bool = false) {
        self.name = name
        self.kind = kind
        self.isRequired = isRequired
        self.summary = summary
        self.isPersonalData = isPersonalData
    }

    /// A field that must be present.
    public static func required(_ name: String, _ kind: FieldKind, _ summary: String, personal: Bool = false) -> FieldSchema {
        FieldSchema(name: name, kind: kind, isRequired: true, summary: summary, isPersonalData: personal)
    }

    /// A field that may be omitted or `null`.
    public static func optional(_ name: String, _ kind: FieldKind, _ summary: String, personal: Bool = false) -> FieldSchema {
        FieldSchema(name: name, kind: kind, isRequired: false, summary: summary, isPersonalData: personal)
    }
}

extension Array where Element == FieldSchema {
    /// The field named `name`, if any.
    public func field(named name: String) -> FieldSchema? {
        first { $0.name == name }
    }

    /// JSON paths (below `prefix`) of every field marked as personal data, at any depth. Arrays
    /// appear as `[]` (`payload.people[].handle`); a variant's case as a member
    /// (`payload.topic.communication.personInformation`). A personal field's own members are
    /// not listed: the whole value is personal.
    public func personalPaths(prefix: String) -> [String] {
        var paths: [String] = []
        for field in self {
            let path = prefix.isEmpty ? field.name : prefix + "." + field.name
            if field.isPersonalData {
                paths.append(path)
            } else {
                paths += field.kind.personalPaths(prefix: path)
            }
        }
        return paths
    }
}

extension FieldKind {
    /// Personal paths inside a value of this kind found at `prefix`.
    func personalPaths(prefix: String) -> [String] {
        switch self {
        case .object(let fields):
            return fields.personalPaths(prefix: prefix)
        case .variant(let cases):
            return cases.flatMap { $0.fields.personalPaths(prefix: prefix + "." + $0.name) }
        case .array(let element, _, _):
            return element.personalPaths(prefix: prefix + "[]")
        default:
            return []
        }
    }
}
