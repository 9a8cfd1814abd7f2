/// `StoreConsentStatusReceived`: the app store told the app, through its data sharing methods,
/// whether verifiable parental consent has been obtained for a minor's account: the fact the app
/// store acts make developers verify (Texas Business and Commerce Code chapter 121 (duties of developers), Utah Code
/// 13-76-202(1)(a)(ii), Louisiana R.S. 51:1773) before a download, a purchase or a significant change.
public struct StoreConsentStatusReceived: EventPayload {
    /// `StoreConsentStatusReceived`.
    public static let eventType = "StoreConsentStatusReceived"
    /// 1.
    public static let schemaVersion = 1

    /// The store that answered.
    public var store: Store
    /// What the consent is for.
    public var purpose: Purpose
    /// What the store said.
    public var status: Status
    /// The significant change asked about (only with purpose `significantChange`).
    public var changeId: String?

    /// The app store.
    public enum Store: String, CatalogueValue {
        /// Apple's App Store.
        case appStore
        /// Google Play.
        case googlePlay
        /// Another app store.
        case other
    }

    /// What the parent's consent covers.
    public enum Purpose: String, CatalogueValue {
        /// Downloading the app.
        case download
        /// Buying the app.
        case purchase
        /// An in-app purchase.
        case inAppPurchase
        /// A significant change to the app.
        case significantChange
    }

    /// The consent status the store reported.
    public enum Status: String, CatalogueValue {
        /// A parent gave verifiable consent.
        case obtained
        /// No consent has been given.
        case notObtained
        /// The parent has been asked and has not answered.
        case pending
        /// A parent withdrew consent.
        case revoked
        /// The account is not a minor's: no consent is needed.
        case notRequired
    }

    /// Creates the payload.
    public init(store: Store, purpose: Purpose, status: Status, changeId: String? = nil) {
        self.store = store
        self.purpose = purpose
        self.status = status
        self.changeId = changeId
    }
}

extension StoreConsentStatusReceived {
    /// The schema.
    public static let schema = EventSchema(
        StoreConsentStatusReceived.self, group: .appStoreLaws,
        summary: "The app store reported, through its data sharing methods, whether verifiable parental consent has been "
            + "obtained for a minor's account, and for what: the status the state app store acts make developers verify "
            + "(Texas Business and Commerce Code chapter 121 (duties of developers), Utah Code 13-76-202(1)(a), Louisiana R.S. 51:1773).",
        fields: [
            .required("store", .oneOf(Store.self), "The store that answered."),
            .required("purpose", .oneOf(Purpose.self), "What the consent covers."),
            .required("status", .oneOf(Status.self), "What the store said."),
            .optional("changeId", .token(.identifier), "The significant change asked about; only with purpose `significantChange`."),
        ],
        rules: [
            .onlyWhen("changeId", other: "purpose", isOneOf: ["significantChange"]),
            .requiredWhen("changeId", other: "purpose", isOneOf: ["significantChange"]),
        ],
        examples: [
            ["store": "appStore", "purpose": "download", "status": "obtained"],
            ["store": "appStore", "purpose": "significantChange", "status": "pending", "changeId": "v3.0"],
        ]
    )
}

extension StoreConsentStatusReceived {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let store = p.string("store") == "appStore" ? "The App Store" : p.string("store") == "googlePlay" ? "Google Play" : "The app store"
        let purpose = p.string("purpose") == "significantChange"
            ? "significant change \(p.string("changeId") ?? "?")" : (p.string("purpose") ?? "?")
        return "\(store) reported the parental consent status for \(purpose): \(p.string("status") ?? "?")."
    }
}

extension StoreConsentStatusReceived {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .storeConsentStatusReceived(self) }
}
