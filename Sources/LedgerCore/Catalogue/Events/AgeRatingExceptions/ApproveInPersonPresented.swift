/// `ApproveInPersonPresented`: the app called MarketplaceKit's
/// `presentAgeExceptionApproveInPersonSheet()` and the Approve in Person sheet was shown, so that a
/// parent could approve an age-rating exception on the child's device. Its failure is
/// ``ApproveInPersonFailed``; the parent's decision is ``AgeExceptionDecided``.
public struct ApproveInPersonPresented: EventPayload {
    /// `ApproveInPersonPresented`.
    public static let eventType = "ApproveInPersonPresented"
    /// 1.
    public static let schemaVersion = 1

    /// The app the exception is for (`AppLibrary.ExceptionRequest.appleItemID`).
    public var appleItemID: Int
    /// The exception the sheet was shown for, when the app knows it.
    public var exceptionId: String?

    /// Creates the payload.
    public init(appleItemID: Int, exceptionId: String? = nil) {
        self.appleItemID = appleItemID
        self.exceptionId = exceptionId
    }
}

extension ApproveInPersonPresented {
    /// The schema.
    public static let schema = EventSchema(
        ApproveInPersonPresented.self, group: .ageRatingExceptions,
        summary: "The Approve in Person sheet was shown (`presentAgeExceptionApproveInPersonSheet()` returned without error) "
            + "for an age-rating exception, so that a parent could approve it on the child's device.",
        fields: [
            .required("appleItemID", .integer(1...FieldKind.largestInteger), "The app the exception is for."),
            .optional("exceptionId", .token(.identifier), "The exception the sheet was shown for."),
        ],
        examples: [["appleItemID": 6_471_234_567, "exceptionId": "ex-5521"]]
    )
}

extension ApproveInPersonPresented {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        "The Approve in Person sheet was shown for app \(p.int("appleItemID").map(String.init) ?? "?")"
            + (p.string("exceptionId").map { " (exception \($0))" } ?? "") + "."
    }
}

extension ApproveInPersonPresented {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .approveInPersonPresented(self) }
}
