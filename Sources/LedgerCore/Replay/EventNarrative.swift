/// One plain sentence per event, for people settling a dispute: what the event says happened, in
/// the words of docs/design/events.md, without the JSON. Personal data is never in the sentence (sealed
/// fields are not read).
///
/// ```swift
/// EventNarrative.sentence(type: "ParentalAnswerReceived", payload: payload, derived: nil)
/// // "A parent answered question 6c1e…: approval (\"Allow\"), by message, received 2026-11-20T18:41:03Z; guardian g_2b81d4."
/// ```
public enum EventNarrative {
    /// The sentence for an event of `type` with `payload` (current schema version) and the
    /// ledger's `derived` facts: its type's own (``EventPayload/sentence(payload:derived:)``, written
    /// beside its fields, which every type must give).
    public static func sentence(type: String, payload: JSONValue, derived: JSONValue?) -> String {
        guard let schema = EventCatalogue.schema(for: type) else { return "\(type) (no description for this type)." }
        return schema.narrate(Reader(payload), Reader(derived ?? .null))
    }

    /// `under 13`, `13 to 15`, `18 or over`, `any age`.
    public static func range(_ lower: Int?, _ upper: Int?, inclusiveUpper: Bool = true) -> String {
        switch (lower, upper) {
        case let (l?, u?): return "\(l) to \(u)"
        case let (nil, u?): return "under \(u + 1)"
        case let (l?, nil): return "\(l) or over"
        case (nil, nil): return "no bounds"
        }
    }

    /// How a parent answered: `in person`, `by message`.
    public static func channel(_ value: String?) -> String {
        value == "inPerson" ? "in person" : value == "message" ? "by message" : (value ?? "?")
    }

    /// Reads members of a JSON object leniently (a missing or mistyped member reads as nil): a
    /// sentence must say something of any payload the ledger stored, an old one included.
    public struct Reader: Sendable {
        let value: JSONValue
        /// A reader of `value`.
        public init(_ value: JSONValue) { self.value = value }
        public func value(_ key: String) -> JSONValue? { value[key] }
        public func string(_ key: String) -> String? { value[key]?.stringValue }
        public func bool(_ key: String) -> Bool? { value[key]?.boolValue }
        public func int(_ key: String) -> Int? { value[key]?.intValue }
        public func ints(_ key: String) -> [Int] { value[key]?.arrayValue?.compactMap(\.intValue) ?? [] }
        public func strings(_ key: String) -> [String] { value[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    }
}
