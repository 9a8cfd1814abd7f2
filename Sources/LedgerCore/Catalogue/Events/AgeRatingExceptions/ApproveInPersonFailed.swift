/// `ApproveInPersonFailed`: `presentAgeExceptionApproveInPersonSheet()` failed.
public struct ApproveInPersonFailed: EventPayload {
    /// `ApproveInPersonFailed`.
    public static let eventType = "ApproveInPersonFailed"
    /// 1.
    public static let schemaVersion = 1

    /// The error.
    public var error: Failure
    /// The exception the app tried to have approved, when it knows it.
    public var exceptionId: String?
    /// The app the exception was for, when known.
    public var appleItemID: Int?

    /// The errors of the approve-in-person sheet.
    public enum Failure: String, CatalogueValue {
        /// There was no pending exception request to approve.
        case missingAgeRatingExceptionRequest
    }

    /// Creates the payload.
    public init(error: Failure, exceptionId: String? = nil, appleItemID: Int? = nil) {
        self.error = error
        self.exceptionId = exceptionId
        self.appleItemID = appleItemID
    }
}

extension ApproveInPersonFailed {
    /// The schema.
    public static let schema = EventSchema(
        ApproveInPersonFailed.self, group: .ageRatingExceptions,
        summary: "Approving an age-rating exception in person failed: `presentAgeExceptionApproveInPersonSheet()` threw.",
        fields: [
            .required("error", .oneOf(Failure.self), "The error."),
            .optional("exceptionId", .token(.identifier), "The exception the app tried to have approved."),
            .optional("appleItemID", .integer(1...FieldKind.largestInteger), "The app the exception was for."),
        ],
        examples: [["error": "missingAgeRatingExceptionRequest", "exceptionId": "ex-5521", "appleItemID": 6_471_234_567]]
    )
}

extension ApproveInPersonFailed {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "Approving in person failed: \(p.string("error") ?? "?")" + (p.string("exceptionId").map { " (exception \($0))" } ?? "") + "."
    }
}

extension ApproveInPersonFailed {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .approveInPersonFailed(self) }
}
