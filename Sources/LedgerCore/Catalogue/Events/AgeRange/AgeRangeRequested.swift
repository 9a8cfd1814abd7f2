/// `AgeRangeRequested`: the app called `requestAgeRange(ageGates:_:_:)` with 1 to 3 age gates.
public struct AgeRangeRequested: EventPayload {
    /// `AgeRangeRequested`.
    public static let eventType = "AgeRangeRequested"
    /// 1.
    public static let schemaVersion = 1

    /// The age gates passed to the request, in increasing order (see ``EventSchema/rules``).
    public var ageGates: [Int]
    /// Why the app asked.
    public var trigger: Trigger

    /// What made the app ask for an age range.
    public enum Trigger: String, CatalogueValue {
        /// The app was downloaded.
        case download
        /// The app was launched.
        case launch
        /// An account was being created.
        case accountCreation
        /// A significant change was introduced.
        case significantChange
        /// The yearly re-check of an age range.
        case anniversaryRecheck
        /// A purchase.
        case purchase
        /// Back-filling existing users (California AB 1043).
        case backfill
        /// Anything else.
        case other
    }

    /// Creates the payload.
    public init(ageGates: [Int], trigger: Trigger) {
        self.ageGates = ageGates
        self.trigger = trigger
    }

    /// The ages a gate may have. DeclaredAgeRange documents no numeric limits (a negative age is
    /// `invalidRequest`); the ledger accepts 1 to 21, the ages at which laws draw lines (13, 16,
    /// 18, 21), and the two-year rule makes the first gate at least 2.
    public static let gateAges = 1...21
}

extension AgeRangeRequested {
    /// The schema.
    public static let schema = EventSchema(
        AgeRangeRequested.self, group: .ageRange,
        summary: "The app requested an age range with `requestAgeRange(ageGates:_:_:)`. A request that breaks the gate rules "
            + "is one DeclaredAgeRange answers with `invalidRequest`, and the ledger refuses to record it as a request.",
        fields: [
            .required("ageGates", .array(of: .integer(gateAges), count: 1...3, unique: false),
                      "The age gates (thresholds) passed to the request, 1 to 3 of them."),
            .required("trigger", .oneOf(Trigger.self), "What made the app ask."),
        ],
        rules: [.ageGates("ageGates", years: 2)],
        examples: [["ageGates": [13, 16, 18], "trigger": "launch"]]
    )
}

extension AgeRangeRequested {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let gates = p.ints("ageGates").map(String.init).joined(separator: ", ")
        return "The app asked for an age range (gates \(gates)) at \(p.string("trigger") ?? "?")."
    }
}

extension AgeRangeRequested {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageRangeRequested(self) }
}
