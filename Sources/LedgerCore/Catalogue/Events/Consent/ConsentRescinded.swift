/// `ConsentRescinded`: the App Store told the app's server (App Store Server Notifications V2,
/// `RESCIND_CONSENT`) that a parent withdrew consent; with the result of the JWS signature check
/// and the enforcement the app applied.
public struct ConsentRescinded: EventPayload {
    /// `ConsentRescinded`.
    public static let eventType = "ConsentRescinded"
    /// 1.
    public static let schemaVersion = 1

    /// The notification's `notificationUUID`.
    public var notificationUUID: String
    /// The notification's `signedDate`: UNIX time in milliseconds, as Apple sends it.
    public var signedDate: Int
    /// `appData.appAppleId` (Apple leaves it out in the sandbox).
    public var appAppleId: Int?
    /// `appData.bundleId`.
    public var bundleId: String
    /// `appData.environment`.
    public var environment: Environment
    /// The `appTransactionId` of the signed app transaction, when the server decoded it.
    public var appTransactionId: String?
    /// The result of checking the notification's JWS signature.
    public var signatureCheck: SignatureCheck
    /// What the app did about it.
    public var enforcementAction: EnforcementAction

    /// The App Store server environment.
    public enum Environment: String, CatalogueValue {
        /// Production.
        case production = "Production"
        /// Sandbox.
        case sandbox = "Sandbox"
        /// Xcode testing.
        case xcode = "Xcode"
        /// Local testing.
        case localTesting = "LocalTesting"

        /// The envelope's `app.environment` for an event of this environment (`production`,
        /// `sandbox`, or `development` for Xcode and local testing).
        public var buildEnvironment: String {
            switch self {
            case .production: return "production"
            case .sandbox: return "sandbox"
            case .xcode, .localTesting: return "development"
            }
        }
    }

    /// The result of verifying the signed notification.
    public enum SignatureCheck: String, CatalogueValue {
        /// The chain and signature verified.
        case valid
        /// They did not: the notification may be forged.
        case invalid
        /// Not checked.
        case notChecked
    }

    /// What the app did on receiving the rescission.
    public enum EnforcementAction: String, CatalogueValue {
        /// Access to the app's features was revoked for the child.
        case accessRevoked
        /// The child's account was suspended.
        case accountSuspended
        /// The child's data was scheduled for deletion.
        case dataDeletionScheduled
        /// Enforcement is pending (a later `AccessGateApplied` records it).
        case pending
        /// Nothing needed doing.
        case noActionRequired
    }

    /// Creates the payload.
    public init(notificationUUID: String, signedDate: Int, appAppleId: Int?, bundleId: String,
                environment: Environment, appTransactionId: String? = nil,
                signatureCheck: SignatureCheck, enforcementAction: EnforcementAction) {
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.appTransactionId = appTransactionId
        self.signatureCheck = signatureCheck
        self.enforcementAction = enforcementAction
    }
}

extension ConsentRescinded {
    /// The schema.
    public static let schema = EventSchema(
        ConsentRescinded.self, group: .consent,
        summary: "A parent withdrew consent: App Store Server Notifications V2 sent `RESCIND_CONSENT`. Records the "
            + "notification's own fields, the result of the JWS signature check and the enforcement action taken.",
        fields: [
            .required("notificationUUID", .token(.uuid), "The notification's `notificationUUID`."),
            .required("signedDate", .integer(0...FieldKind.largestInteger),
                      "The notification's `signedDate`, UNIX time in milliseconds as Apple sends it."),
            .optional("appAppleId", .integer(1...FieldKind.largestInteger),
                      "`appData.appAppleId`; Apple leaves it out in the sandbox."),
            .required("bundleId", .token(.bundleId), "`appData.bundleId`."),
            .required("environment", .oneOf(Environment.self), "`appData.environment`."),
            .optional("appTransactionId", .token(.identifier), "The `appTransactionId` of the signed app transaction."),
            .required("signatureCheck", .oneOf(SignatureCheck.self), "The result of verifying the notification's JWS signature."),
            .required("enforcementAction", .oneOf(EnforcementAction.self), "What the app did about the rescission."),
        ],
        // actor appStore: the ledger verified Apple's signed notification itself (decision 0017); an
        // ordinary writer records what it received as itself, its own check in signatureCheck.
        appenders: [EventAppender(.appStoreNotification, actors: ["appStore"]), EventAppender(.append, actors: EventAppender.ordinaryActors)],
        examples: [[
            "notificationUUID": "002e14d5-51f5-4503-b5a8-c3a1af68eb20", "signedDate": 1_795_000_000_000,
            "appAppleId": 6_471_234_567, "bundleId": "com.example.kidsdraw", "environment": "Production",
            "appTransactionId": "704567890123456789", "signatureCheck": "valid", "enforcementAction": "accessRevoked",
        ]]
    )
}

extension ConsentRescinded {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        let environment = p.string("environment") ?? "?", signature = p.string("signatureCheck") ?? "?"
        let withdraws = Self.withdraws(environment: Environment(rawValue: environment), signatureCheck: SignatureCheck(rawValue: signature))
        return "The App Store reported consent rescinded for \(p.string("bundleId") ?? "?") "
            + "(\(environment) environment, signature \(signature)); the app's action: \(p.string("enforcementAction") ?? "?")."
            + (withdraws ? "" : " It withdraws no consent: only a production notification whose signature verified does (decision 0062).")
    }
}

extension ConsentRescinded {
    /// Whether the notification withdraws consent in the ledger's judgement (decision 0062): it came
    /// from Apple's production environment and its signature verified. A sandbox, Xcode or local
    /// test's notification withdraws nothing a person gave; one whose signature did not verify
    /// (`invalid`, or `notChecked`) may be forged, and is kept as the anomaly `rescission-unverified`.
    /// The rules, the consent register and the regulator report all ask this one question.
    public var withdrawsConsent: Bool { Self.withdraws(environment: environment, signatureCheck: signatureCheck) }

    /// The one rule ``withdrawsConsent`` and the sentence apply.
    static func withdraws(environment: Environment?, signatureCheck: SignatureCheck?) -> Bool {
        environment == .production && signatureCheck == .valid
    }

    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .consentRescinded(self) }
}
