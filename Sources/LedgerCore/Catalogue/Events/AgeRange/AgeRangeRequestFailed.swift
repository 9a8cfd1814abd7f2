/// `AgeRangeRequestFailed`: the age range request threw `AgeRangeService.Error`.
public struct AgeRangeRequestFailed: EventPayload {
    /// `AgeRangeRequestFailed`.
    public static let eventType = "AgeRangeRequestFailed"
    /// 1.
    public static let schemaVersion = 1

    /// The error.
    public var error: Failure
    /// The error's description, when the app has one.
    public var detail: String?

    /// `AgeRangeService.Error`.
    public enum Failure: String, CatalogueValue {
        /// The request had invalid parameters or configuration.
        case invalidRequest
        /// The system could not share the age range.
        case notAvailable
    }

    /// Creates the payload.
    public init(error: Failure, detail: String? = nil) {
        self.error = error
        self.detail = detail
    }
}

extension AgeRangeRequestFailed {
    /// The schema.
    public static let schema = EventSchema(
        AgeRangeRequestFailed.self, group: .ageRange,
        summary: "The age range request failed with `AgeRangeService.Error`.",
        fields: [
            .required("error", .oneOf(Failure.self), "The `AgeRangeService.Error` case."),
            .optional("detail", .text(maxLength: 500), "The error's description, as the system gave it."),
        ],
        examples: [["error": "notAvailable", "detail": "The operation couldn’t be completed."]]
    )
}

extension AgeRangeRequestFailed {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        return "The age range request failed: \(p.string("error") ?? "?")."
    }
}

extension AgeRangeRequestFailed {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .ageRangeRequestFailed(self) }
}
