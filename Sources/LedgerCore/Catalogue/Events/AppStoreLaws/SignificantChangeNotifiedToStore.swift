/// `SignificantChangeNotifiedToStore`: the developer notified an app store of a significant change,
/// as the state app store acts require (Utah Code 13-76-202(1)(b), Texas Business and Commerce Code
/// chapter 121 (duties of developers), Louisiana R.S. 51:1773), so that the store notifies users and obtains parents' renewed
/// consent. Recorded on the change's stream.
public struct SignificantChangeNotifiedToStore: EventPayload {
    /// `SignificantChangeNotifiedToStore`.
    public static let eventType = "SignificantChangeNotifiedToStore"
    /// 1.
    public static let schemaVersion = 1

    /// The change notified (its ``SignificantChangeDeclared/changeId``).
    public var changeId: String
    /// The store notified.
    public var store: StoreConsentStatusReceived.Store
    /// The store's reference for the notice (a submission or ticket id), when it gave one.
    public var reference: String?

    /// Creates the payload.
    public init(changeId: String, store: StoreConsentStatusReceived.Store, reference: String? = nil) {
        self.changeId = changeId
        self.store = store
        self.reference = reference
    }
}

extension SignificantChangeNotifiedToStore {
    /// The schema.
    public static let schema = EventSchema(
        SignificantChangeNotifiedToStore.self, group: .appStoreLaws,
        summary: "The developer notified an app store of a significant change, as the state app store acts require "
            + "(Utah Code 13-76-202(1)(b), Texas Business and Commerce Code chapter 121 (duties of developers), Louisiana R.S. 51:1773), so that the store "
            + "tells users and obtains parents' renewed consent. Recorded on the change's stream.",
        fields: [
            .required("changeId", .token(.identifier), "The change notified (its stream is change-<changeId>)."),
            .required("store", .oneOf(StoreConsentStatusReceived.Store.self), "The store notified."),
            .optional("reference", .token(.identifier), "The store's reference for the notice, when it gave one."),
        ],
        examples: [["changeId": "v3.0", "store": "appStore", "reference": "asc-2026-0611-77"]]
    )
}

extension SignificantChangeNotifiedToStore {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let store = p.string("store") == "appStore" ? "the App Store" : p.string("store") == "googlePlay" ? "Google Play" : "an app store"
        return "The developer notified \(store) of significant change \(p.string("changeId") ?? "?")"
            + (p.string("reference").map { " (reference \($0))" } ?? "") + "."
    }
}

extension SignificantChangeNotifiedToStore {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .significantChangeNotifiedToStore(self) }
}
