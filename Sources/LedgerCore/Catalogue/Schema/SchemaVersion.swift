/// An older version of an event type's payload that the ledger still reads: stored events keep
/// their bytes forever, so a version-1 record must still decode after version 2 exists.
///
/// The older version is validated against its own fields and rules, then ``upcast`` turns it into
/// the current version's shape, which is validated and decoded as usual.
public struct SchemaVersion: Sendable {
    /// The version number.
    public let version: Int
    /// The fields this version had.
    public let fields: [FieldSchema]
    /// The rules this version had.
    public let rules: [PayloadRule]
    /// What changed in the next version, and how ``upcast`` bridges it, for the catalogue.
    public let changes: String
    /// Turns a valid payload of this version into the next version's shape (the current one's,
    /// for the newest older version). Pure: the stored event is never rewritten.
    public let upcast: @Sendable ([String: JSONValue]) -> [String: JSONValue]

    /// Creates an older version.
    public init(version: Int, fields: [FieldSchema], rules: [PayloadRule] = [], changes: String,
                upcast: @escaping @Sendable ([String: JSONValue]) -> [String: JSONValue]) {
        self.version = version
        self.fields = fields
        self.rules = rules
        self.changes = changes
        self.upcast = upcast
    }
}
