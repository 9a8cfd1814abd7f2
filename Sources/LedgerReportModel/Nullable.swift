/// A member a report always carries and writes `null` when it has no value, as the report schemas
/// (docs/reports/*.schema.json) require: never left out. Swift's own `Optional` members are left
/// out when nil and may be missing when read; a member wrapped in `Nullable` is written as `null`
/// and must be present when read (`null` or a value), so a report missing it is refused with the
/// member's path.
///
/// ```swift
/// struct Row: Codable { @Nullable var subject: String? }   // {"subject":null}
/// ```
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The value, nil for `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads `null` as nil, anything else as a `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes nil as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}
