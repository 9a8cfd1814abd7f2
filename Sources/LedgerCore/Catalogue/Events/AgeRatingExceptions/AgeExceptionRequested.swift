/// `AgeExceptionRequested`: an age-rating exception request appeared as pending in
/// MarketplaceKit's `currentAgeExceptionRequests()`.
public struct AgeExceptionRequested: EventPayload {
    /// `AgeExceptionRequested`.
    public static let eventType = "AgeExceptionRequested"
    /// 1.
    public static let schemaVersion = 1

    /// The exception's id (its stream is `exception-<id>`).
    public var exceptionId: String
    /// The app the exception is for.
    public var appleItemID: Int
    /// The app's age rating, when known.
    public var ageRating: AgeRatingCode?

    /// Creates the payload.
    public init(exceptionId: String, appleItemID: Int, ageRating: AgeRatingCode? = nil) {
        self.exceptionId = exceptionId
        self.appleItemID = appleItemID
        self.ageRating = ageRating
    }

    /// `ratingLabel`, when the rating is known.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        guard let ageRating else { return [:] }
        return ["ratingLabel": .string(ageRating.label)]
    }
}

extension AgeExceptionRequested {
    /// The schema.
    public static let schema = EventSchema(
        AgeExceptionRequested.self, group: .ageRatingExceptions,
        summary: "An age-rating exception request is pending: it appeared in `currentAgeExceptionRequests()`.",
        fields: [
            .required("exceptionId", .token(.identifier), "The exception's id (its stream is exception-<exceptionId>)."),
            .required("appleItemID", .integer(1...FieldKind.largestInteger), "The app the exception is for (`AppleItemID`)."),
            .optional("ageRating", .code(AgeRatingCode.self), "The app's age rating, as a code."),
        ],
        derived: [AgeRatingCode.ratingLabelFact(from: "ageRating")],
        examples: [["exceptionId": "ex-5521", "appleItemID": 6_471_234_567, "ageRating": 416]]
    )
}

extension AgeExceptionRequested {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        return "Age-rating exception \(p.string("exceptionId") ?? "?") is pending for app \(p.int("appleItemID").map(String.init) ?? "?")"
            + (d.string("ratingLabel").map { " (rated \($0))" } ?? "") + "."
    }
}

extension AgeExceptionRequested {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageExceptionRequested(self) }
}
