/// What an event is to the projections and the rules, declared once beside its type's fields
/// (``EventSchema/roles``), so that no fold or rule names the types itself (issue 37: "is this
/// event an age signal" was written in two folds). The SQL folds ask through functions generated
/// from these declarations (`ledger.is_age_signal`, `EventRoleSQL` in LedgerGenerators); docs/events.md lists them.
public struct EventRole: Sendable, Hashable {
    /// The roles there are.
    public enum Name: String, Sendable, CaseIterable {
        /// The event tells the subject's age (its legal category and whether they are a verified
        /// adult): the rules take the latest before a decision as the subject's age then.
        case ageSignal

        /// The generated SQL function that asks it: `ledger.is_age_signal(type, payload)`.
        public var sqlFunction: String {
            "ledger.is_" + rawValue.reduce(into: "") { out, c in out += c.isUppercase ? "_" + c.lowercased() : String(c) }
        }

        /// What it means, for docs/events.md.
        public var meaning: String {
            switch self {
            case .ageSignal: return "an age signal: the rules take the latest before a decision as the subject's age then"
            }
        }
    }

    /// The role.
    public let name: Name
    /// The payload field and value the event must have to play the role (nil: it always does).
    public let condition: FieldCondition?

    /// The event plays `name`, always or when `condition` holds of its payload.
    public init(_ name: Name, when condition: FieldCondition? = nil) {
        self.name = name
        self.condition = condition
    }

    /// An age signal.
    public static let ageSignal = EventRole(.ageSignal)

    /// Whether an event whose payload is `payload` plays the role.
    public func holds(for payload: JSONValue) -> Bool {
        guard let condition else { return true }
        return payload[condition.field]?.stringValue == condition.value
    }

    /// The role as docs/events.md says it.
    public var sentence: String {
        guard let condition else { return name.meaning }
        return name.meaning + " (when `\(condition.field)` is `\(condition.value)`)"
    }
}
