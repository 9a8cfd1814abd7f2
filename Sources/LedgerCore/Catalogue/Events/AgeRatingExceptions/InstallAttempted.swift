/// `InstallAttempted`: the person tried to install an app through a marketplace.
public struct InstallAttempted: EventPayload {
    /// `InstallAttempted`.
    public static let eventType = "InstallAttempted"
    /// 1.
    public static let schemaVersion = 1

    /// The app (`AppleItemID`).
    public var appleItemID: Int
    /// The app's age rating.
    public var ageRating: AgeRatingCode
    /// Whether the install asked for an age-rating exception (`requestAgeException`).
    public var requestAgeException: Bool
    /// What happened.
    public var outcome: Outcome
    /// The exception queued, when `outcome` is `cancelled` and the app knows its id.
    public var exceptionId: String?
    /// `InstallMetadata.isUpdate`: whether it updated an app already installed, when known.
    public var isUpdate: Bool?

    /// The result of the install attempt.
    public enum Outcome: String, CatalogueValue {
        /// The app was installed.
        case installed
        /// The device's rating limit stopped it.
        case ratingRestricted
        /// An exception was asked for but not needed; the app was installed.
        case ageRatingExceptionNotNeeded
        /// The install was cancelled: the exception request is queued for a guardian.
        case cancelled
    }

    /// Creates the payload.
    public init(appleItemID: Int, ageRating: AgeRatingCode, requestAgeException: Bool, outcome: Outcome,
                exceptionId: String? = nil, isUpdate: Bool? = nil) {
        self.appleItemID = appleItemID
        self.ageRating = ageRating
        self.requestAgeException = requestAgeException
        self.outcome = outcome
        self.exceptionId = exceptionId
        self.isUpdate = isUpdate
    }

    /// `ratingLabel`.
    public func derivedFacts(in context: DerivationContext) -> [String: JSONValue] {
        ["ratingLabel": .string(ageRating.label)]
    }
}

extension InstallAttempted {
    /// The schema.
    public static let schema = EventSchema(
        InstallAttempted.self, group: .ageRatingExceptions,
        summary: "The person tried to install an app through a marketplace, possibly asking for an age-rating exception. "
            + "`cancelled` means the exception request is queued for a guardian.",
        fields: [
            .required("appleItemID", .integer(1...FieldKind.largestInteger), "The app's `AppleItemID`."),
            .required("ageRating", .code(AgeRatingCode.self), "The app's age rating, as a code."),
            .required("requestAgeException", .boolean, "Whether the install asked for an age-rating exception."),
            .required("outcome", .oneOf(Outcome.self), "What happened."),
            .optional("exceptionId", .token(.identifier), "The exception queued, when the outcome is cancelled."),
            .optional("isUpdate", .boolean, "`InstallMetadata.isUpdate`: whether it updated an app already installed, when known."),
        ],
        derived: [AgeRatingCode.ratingLabelFact(from: "ageRating")],
        examples: [
            ["appleItemID": 6_471_234_567, "ageRating": 416, "requestAgeException": true, "outcome": "cancelled",
             "exceptionId": "ex-5521"],
            ["appleItemID": 6_471_234_567, "ageRating": 416, "requestAgeException": false, "outcome": "installed", "isUpdate": true],
        ]
    )
}

extension InstallAttempted {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived d: EventNarrative.Reader) -> String {
        let what = p.bool("isUpdate") == true ? "An update" : "An install"
        return "\(what) of app \(p.int("appleItemID").map(String.init) ?? "?") (rated \(d.string("ratingLabel") ?? "?")) "
            + "was attempted\(p.bool("requestAgeException") == true ? " asking for an age-rating exception" : ""): "
            + "\(p.string("outcome") ?? "?")" + (p.string("exceptionId").map { ", exception \($0) queued" } ?? "") + "."
    }
}

extension InstallAttempted {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .installAttempted(self) }
}
