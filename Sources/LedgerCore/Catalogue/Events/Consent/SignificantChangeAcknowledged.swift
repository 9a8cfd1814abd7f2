/// `SignificantChangeAcknowledged`: an adult acknowledged a significant change, or the app
/// marked it handled because the person's original app version already included it, or because
/// no compliance was required; possibly on another of the person's devices, synced here.
public struct SignificantChangeAcknowledged: EventPayload {
    /// `SignificantChangeAcknowledged`.
    public static let eventType = "SignificantChangeAcknowledged"
    /// 1.
    public static let schemaVersion = 1

    /// The change acknowledged.
    public var changeId: String
    /// How it was handled.
    public var handledBy: HandledBy
    /// `AppTransaction.originalAppVersion`, when that is how it was handled.
    public var originalAppVersion: String?
    /// True when it was handled on another of the person's devices and synced to this one.
    public var handledOnOtherDevice: Bool?

    /// How a significant change was handled for an adult.
    public enum HandledBy: String, CatalogueValue {
        /// The adult saw `showSignificantUpdateAcknowledgment` and acknowledged it.
        case showSignificantUpdateAcknowledgment
        /// The person's `AppTransaction.originalAppVersion` already includes the change.
        case originalAppVersion
        /// No compliance was required (neither regulatory feature applied), so the app marked the
        /// change handled, as Apple's sample does in `handlePendingChanges()`. No acknowledgment:
        /// the rules never count it as one.
        case notRequired
    }

    /// Creates the payload.
    public init(changeId: String, handledBy: HandledBy, originalAppVersion: String? = nil, handledOnOtherDevice: Bool? = nil) {
        self.changeId = changeId
        self.handledBy = handledBy
        self.originalAppVersion = originalAppVersion
        self.handledOnOtherDevice = handledOnOtherDevice
    }
}

extension SignificantChangeAcknowledged {
    /// The schema.
    public static let schema = EventSchema(
        SignificantChangeAcknowledged.self, group: .consent,
        summary: "An adult acknowledged a significant change through `showSignificantUpdateAcknowledgment`, or the app marked "
            + "it handled because the person's `AppTransaction.originalAppVersion` already includes the change, or because no "
            + "compliance was required (`notRequired`, which the rules never count as an acknowledgment). A change handled on "
            + "another of the person's devices and synced here (`NSUbiquitousKeyValueStore`) says so.",
        fields: [
            .required("changeId", .token(.identifier), "The change acknowledged."),
            .required("handledBy", .oneOf(HandledBy.self), "How the change was handled."),
            .optional("originalAppVersion", .token(.version),
                      "`AppTransaction.originalAppVersion`, when handledBy is originalAppVersion."),
            .optional("handledOnOtherDevice", .boolean,
                      "True when it was handled on another of the person's devices and synced to this one "
                          + "(`NSUbiquitousKeyValueStore.didChangeExternallyNotification`); absent or false: on this device."),
        ],
        rules: [
            .requiredWhen("originalAppVersion", other: "handledBy", isOneOf: ["originalAppVersion"]),
            .onlyWhen("originalAppVersion", other: "handledBy", isOneOf: ["originalAppVersion"]),
        ],
        examples: [
            ["changeId": "v3.0", "handledBy": "originalAppVersion", "originalAppVersion": "3.1.0"],
            ["changeId": "v3.0", "handledBy": "showSignificantUpdateAcknowledgment"],
            ["changeId": "v3.0", "handledBy": "notRequired", "handledOnOtherDevice": true],
        ]
    )
}

extension SignificantChangeAcknowledged {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let change = p.string("changeId") ?? "?"
        let how: String
        switch p.string("handledBy") {
        case "showSignificantUpdateAcknowledgment"?:
            how = "Change \(change) was shown to the person, who acknowledged it (showSignificantUpdateAcknowledgment)"
        case "originalAppVersion"?:
            how = "Change \(change) was marked as already in the version the person first installed"
                + " (originalAppVersion \(p.string("originalAppVersion") ?? "?"))"
        case "notRequired"?:
            how = "Change \(change) was marked as needing no acknowledgment (notRequired): no acknowledgment was made"
        case let other:
            how = "Change \(change) was handled (\(other ?? "?"))"
        }
        return how + (p.bool("handledOnOtherDevice") == true ? ", on another of the person's devices" : "") + "."
    }
}

extension SignificantChangeAcknowledged {
    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .significantChangeAcknowledged(self) }
}
