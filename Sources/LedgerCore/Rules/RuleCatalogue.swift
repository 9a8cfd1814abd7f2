/// Every rule the ledger judges events by, in the order docs/rules.md lists them: the violations a
/// regulator report lists, then the surprising facts kept as evidence. The anomalies projection
/// (`AnomaliesFold`, Sources/LedgerFolds/Anomalies/) decides each finding once per event, by position, identically
/// in catch-up, rebuild and time travel. The rules with a ``LedgerRule/policySetting``
/// (`rescission-not-enforced`, `age-signal-expired`) are decided by the reports and `explain`
/// against the policy's threshold, from facts the projections keep.
public enum RuleCatalogue {
    /// The rules, violations first.
    public static let all: [LedgerRule] = violations + anomalies

    /// The rule named `id`, if there is one.
    public static func rule(_ id: String) -> LedgerRule? { all.first { $0.id == id } }

    /// The rules judged on an `AccessGateApplied` that opened a feature (what `explain` lists for a decision).
    public static var onOpenedFeatures: [LedgerRule] { violations.filter { $0.judges == "AccessGateApplied" } }

    // What the consent rules rest on, shared by several of them.
    private static let appStoreActs: [LedgerRule.Basis] = [
        .init(.texasSB2420, "A developer uses the app store's age category and parental consent status, and obtains a parent's consent again before a minor uses a significant change."),
        .init(.utahSB142, "The same duties of developers: verify through the app store, and a parent's consent for a minor, renewed for a significant change."),
        .init(.louisianaHB977, "A developer relies on the app store's age category and a parent's consent for a minor's use (HB 570 of 2025, which said the same, never took effect)."),
    ]
    private static let significantChangeConsent = LedgerRule.Basis(
        .appleDeclaredAgeRange,
        "`requiredRegulatoryFeatures` containing `significantAppChangeRequiresParentalConsent` tells the app that a parent must approve a significant change before the minor uses it; the sample app asks through PermissionKit's significant-update topic and keeps the change closed until approval.")
    private static let adultNotification = LedgerRule.Basis(
        .appleDeclaredAgeRange,
        "`significantAppChangeRequiresAdultNotification` tells the app that an adult must be shown the change (`showSignificantUpdateAcknowledgment`) before using it; the sample app blocks an adult whose age is not verified until the account is.")
    private static let withdrawal = LedgerRule.Basis(
        .appleServerNotifications,
        "`RESCIND_CONSENT`: a parent withdrew consent for the minor's use of the app; the app must stop the minor's access until consent is given again. The ledger counts a notification from the `Production` environment whose JWS signature verified (decision 0062).")
    private static let permissionKit = LedgerRule.Basis(
        .applePermissionKit, "A parent's answer belongs to a question the app asked; a question expires at its expiration date.")

    /// Violations: a finding breaks a rule and is listed by the regulator report.
    public static let violations: [LedgerRule] = [
        LedgerRule(
            id: "access-after-denial", kind: .violation,
            statement: "A feature was opened for a subject after the parent denied the significant change in force for the app: the parent's latest word on that change before the opening is a denial (an answer to a question about it, or on Android a Play SUPERVISED_APPROVAL_DENIED signal after it), and the subject's latest age signal does not say adult.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "SignificantChangeDeclared", "PermissionQuestionSent", "ParentalAnswerReceived", "PlayAgeSignalReceived", "AgeRangeShared", "AgeVerificationCompleted"],
            evidence: "The change's declaration, the parent's denial and the opening.",
            basis: appStoreActs + [significantChangeConsent, .init(.coppa, "16 CFR 312.6(a)(2): a parent may refuse to permit further use of the child's information.")]),
        LedgerRule(
            id: "access-without-approval", kind: .violation,
            statement: "A feature was opened for a minor (under 13, 13 to 15, 16 to 17, or 18 but under the age of majority of the signal's jurisdiction where that is above 18, by the latest age signal) while the app had a significant change in force (the latest declared for the app before the opening, introduced in or before the opening's app version and after the version the subject first used the app at: a change the app already had when the subject got it is no change for them, as Apple's sample decides by `originalAppVersion`; without that version on record the change is judged in force, and the finding needs review when the ledger first saw the subject at a version that already had it), approval of that change was required, and no word of the parent on it is on record (a withdrawal of consent since an approval is `access-after-rescission`). Approval is required when the latest EligibilityChecked for the subject and app said the subject is eligible and listed `significantAppChangeRequiresParentalConsent`, or the device's parental controls include `significantAppChangeApprovalRequired`, or Play says the user is supervised.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "EligibilityChecked", "AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted", "SignificantChangeDeclared", "PermissionQuestionSent", "ParentalAnswerReceived"],
            evidence: "The age signal, the requirement (EligibilityChecked) when it was the reason, the change's declaration, and the opening.",
            basis: appStoreActs + [significantChangeConsent, .init(.coppa, "16 CFR 312.5: verifiable parental consent before collecting, using or disclosing a child's personal information."),
                                   .init(.playAgeSignals, "`SUPERVISED`: a parent manages the account and approves significant changes; `SUPERVISED_APPROVAL_PENDING` and `_DENIED` mean not approved.")]),
        LedgerRule(
            id: "access-after-rescission", kind: .violation,
            statement: "A feature of an app was opened for a subject after a parent withdrew consent for that app (App Store RESCIND_CONSENT from the production environment, its signature verified, for the app's bundleId) and before any approval for the app since: a parent's approval of a question the app asked about the subject, or an age-rating exception for the app (the notification's `appAppleId`) approved.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "ConsentRescinded", "PermissionQuestionSent", "ParentalAnswerReceived", "AgeExceptionRequested", "AgeExceptionDecided"],
            evidence: "The withdrawal and the opening.",
            basis: appStoreActs + [withdrawal, .init(.coppa, "16 CFR 312.6(a)(2): a parent may at any time refuse to permit further use of the child's information.")]),
        LedgerRule(
            id: "access-without-age-signal", kind: .violation,
            statement: "A feature was opened for a subject while the latest EligibilityChecked for the subject and app said the app is eligible for age features (`isEligibleForAgeFeatures`), and no age signal was on record before the opening, or the person had declined to share an age range (AgeRangeDeclined) since their latest signal: without a signal the app must apply its most restrictive default, as if the person were a child.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "EligibilityChecked", "AgeRangeShared", "AgeRangeDeclined", "PlayAgeSignalReceived", "AgeVerificationCompleted"],
            evidence: "The requirement, the decline when there is one, and the opening.",
            basis: [.init(.appleDeclaredAgeRange, "`isEligibleForAgeFeatures` true tells the app that age-assurance laws apply to the person: it requests an age range (`requestAgeRange`) and, when the person declines or none is shared, applies the experience for the youngest users."),
                    .init(.texasSB2420, "A developer uses the age category the app store provides to enforce its age restrictions."),
                    .init(.californiaAB1043, "A developer requests the operating system's age bracket signal and treats the user according to it.")]),
        LedgerRule(
            id: "signal-disregarded", kind: .violation,
            statement: "A feature was opened for a subject citing in its basis an age signal of the subject, while a later age signal, recorded before the opening and not cited, had put the subject in a younger band (under 13, 13 to 15, 16 to 17, 18 but under the age of majority, adult, youngest first): the app acted on an age range it had been told was no longer the person's.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted"],
            evidence: "The signal relied on, the later signal, and the opening.",
            basis: [.init(.californiaAB1043, "Civil Code 1798.501: a developer that receives a signal has actual knowledge of the user's age range, even if it willfully disregards the signal."),
                    .init(.utahSB142, "Utah Code 13-76-202(3): safety-related defaults use the lowest age category the app store's data or the developer's own indicates."),
                    .init(.appleDeclaredAgeRange, "An app requests the age range again when it may have changed, and acts on the latest response.")]),
        LedgerRule(
            id: "rescission-not-enforced", kind: .violation,
            statement: "A parent's consent was rescinded (App Store RESCIND_CONSENT from the production environment, its signature verified) and no AccessGateApplied closed a feature of that app for the subject within the policy window, or none at all once the window has passed.",
            judges: "ConsentRescinded",
            reads: ["ConsentRescinded", "AccessGateApplied"],
            evidence: "The rescission, and the late closing if there was one.",
            basis: appStoreActs + [.init(.coppa, "16 CFR 312.6(a)(2): a parent may at any time refuse to permit further use of the child's information.")],
            policySetting: "rescissionEnforcementWindowHours"),
        LedgerRule(
            id: "adult-access-without-acknowledgment", kind: .violation,
            statement: "A feature was opened for a verified adult while the app had a significant change in force, the latest EligibilityChecked for the subject and app listed `significantAppChangeRequiresAdultNotification`, and no acknowledgment of that change by the subject holds (shown through `showSignificantUpdateAcknowledgment`, or handled through an `originalAppVersion` that already included it, on this device or synced from another; a `notRequired` marking is no acknowledgment).",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "EligibilityChecked", "AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted", "SignificantChangeDeclared", "SignificantChangeAcknowledged"],
            evidence: "The age signal, the requirement, the change's declaration and the opening.",
            basis: [adultNotification, .init(.texasSB2420, "Developers notify users of significant changes to the app.")]),
        LedgerRule(
            id: "unverified-adult-access", kind: .violation,
            statement: "A feature was opened for a subject whose latest age signal says adult but not verified (self-declared to the platform, or only through the app's own age gate), while the app had a significant change in force and the latest EligibilityChecked listed `significantAppChangeRequiresAdultNotification`: the sample app blocks such a person until the account is verified.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "EligibilityChecked", "AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted", "SignificantChangeDeclared"],
            evidence: "The age signal, the requirement, the change's declaration and the opening.",
            basis: [adultNotification] + appStoreActs.prefix(1)),
        LedgerRule(
            id: "access-opened-without-basis", kind: .violation,
            statement: "A feature was opened citing no event (`basis` empty): the decision cannot be traced to an age signal or an answer.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied"],
            evidence: "The opening.",
            basis: [.init(.coppa, "16 CFR 312.5: the operator must be able to show that consent was obtained before use."),
                    .init(.ukChildrensCode, "Standard 3: the operator must be able to show how a child's age was established for each decision.")]),
        LedgerRule(
            id: "age-signal-expired", kind: .violation,
            statement: "A feature was opened for a subject whose latest age signal (AgeRangeShared, PlayAgeSignalReceived or an AgeVerificationCompleted that passed, from any app) occurred longer before the opening than the policy's re-check interval allows (`ageSignalRecheckDays`). Judged only when the policy sets an interval; the times compared are the two events' `occurredAt`.",
            judges: "AccessGateApplied",
            reads: ["AccessGateApplied", "AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted"],
            evidence: "The age signal and the opening.",
            basis: [.init(.appleDeclaredAgeRange, "An age range describes the person when it was shared, and people cross an app's age gates as they grow older; an app that relies on a range asks again (`requestAgeRange`) for a current one."),
                    .init(.playAgeSignals, "An age signal describes the user when it was read; the app reads it again for a current one.")],
            policySetting: "ageSignalRecheckDays"),
        LedgerRule(
            id: "acknowledgment-version-false", kind: .violation,
            statement: "A significant change was marked handled through `originalAppVersion`, but the change was introduced in a later version than that original version: the person never had the change when they installed, so the marking is false.",
            judges: "SignificantChangeAcknowledged",
            reads: ["SignificantChangeAcknowledged", "SignificantChangeDeclared"],
            evidence: "The change's declaration and the marking.",
            basis: [adultNotification]),
        LedgerRule(
            id: "acknowledgment-before-change", kind: .violation,
            statement: "An acknowledgment of a significant change that no SignificantChangeDeclared precedes in the log, or whose declaration occurred after the acknowledgment (device clocks).",
            judges: "SignificantChangeAcknowledged",
            reads: ["SignificantChangeAcknowledged", "SignificantChangeDeclared"],
            evidence: "The declaration when there is one, and the acknowledgment.",
            basis: [adultNotification]),
        LedgerRule(
            id: "answer-before-question", kind: .violation,
            statement: "A parent's answer with no PermissionQuestionSent for its question earlier in the log, or to a question that occurred after the answer (device clocks).",
            judges: "ParentalAnswerReceived",
            reads: ["ParentalAnswerReceived", "PermissionQuestionSent"],
            evidence: "The question when there is one, and the answer.",
            basis: [permissionKit]),
        LedgerRule(
            id: "answer-after-question-expired", kind: .violation,
            statement: "A parent's answer recorded after its question's QuestionExpired event.",
            judges: "ParentalAnswerReceived",
            reads: ["ParentalAnswerReceived", "PermissionQuestionSent", "QuestionExpired"],
            evidence: "The expiry and the answer.",
            basis: [permissionKit]),
        LedgerRule(
            id: "exception-install-without-approval", kind: .violation,
            statement: "An install that asked for an age-rating exception (`requestAgeException`) went ahead (`installed`) with no approved AgeExceptionDecided on record for an exception the subject requested for that app, or only approvals a parent has withdrawn since (App Store RESCIND_CONSENT whose `appAppleId` is the app, counted as `access-after-rescission` counts it) with no approval after the withdrawal.",
            judges: "InstallAttempted",
            reads: ["InstallAttempted", "AgeExceptionRequested", "AgeExceptionDecided", "ConsentRescinded"],
            evidence: "The latest request for the app when there is one, the withdrawn approval and its withdrawal when that is the reason, and the install.",
            basis: [.init(.appleAgeRatingExceptions, "An app above the child's age limit installs only after a guardian approves the exception."),
                    .init(.texasSB2420, "A minor's download needs a parent's consent through the app store.")]),
        LedgerRule(
            id: "in-person-approval-unauthenticated", kind: .violation,
            statement: "An age-rating exception approved in person on the child's device with no guardian authentication recorded (`guardianAuthenticated` not true).",
            judges: "AgeExceptionDecided",
            reads: ["AgeExceptionDecided", "AgeExceptionRequested"],
            evidence: "The request when there is one, and the decision.",
            basis: [.init(.appleAgeRatingExceptions, "Approval in person requires the guardian to authenticate with their Apple Account on the child's device.")]),
    ]

    /// Anomalies: facts the catalogue allows but that should not happen, kept as evidence.
    public static let anomalies: [LedgerRule] = [
        LedgerRule(
            id: "answer-after-expiry", kind: .anomaly,
            statement: "A parent's answer that occurred after its question's `expirationDate`.",
            judges: "ParentalAnswerReceived", reads: ["ParentalAnswerReceived", "PermissionQuestionSent"],
            evidence: "The question and the answer.", basis: [permissionKit]),
        LedgerRule(
            id: "exception-decided-twice", kind: .anomaly,
            statement: "An AgeExceptionDecided for an exception already decided.",
            judges: "AgeExceptionDecided", reads: ["AgeExceptionDecided"],
            evidence: "The first decision and this one.",
            basis: [.init(.appleAgeRatingExceptions, "An exception request is decided once.")]),
        LedgerRule(
            id: "decision-without-request", kind: .anomaly,
            statement: "An AgeExceptionDecided with no AgeExceptionRequested before it.",
            judges: "AgeExceptionDecided", reads: ["AgeExceptionDecided", "AgeExceptionRequested"],
            evidence: "The decision.",
            basis: [.init(.appleAgeRatingExceptions, "A decision answers a request.")]),
        LedgerRule(
            id: "change-redeclared", kind: .anomaly,
            statement: "A significant change declared again with a different description or version than its first declaration (the first one stands).",
            judges: "SignificantChangeDeclared", reads: ["SignificantChangeDeclared"],
            evidence: "The first declaration and this one.",
            basis: [significantChangeConsent]),
        LedgerRule(
            id: "occurred-in-future", kind: .anomaly,
            statement: "An event whose `occurredAt` is more than a year after the ledger recorded it (a device clock far ahead, or a forged time). Checked on the event types the rules read.",
            judges: "any", reads: ["every type the rules read"],
            evidence: "The event.", basis: []),
        LedgerRule(
            id: "implausible-declaration", kind: .anomaly,
            statement: "An age range that contradicts how it was declared: a range under 13 that the person declared for themselves (`selfDeclared`: a child under 13 has an Apple Account only through a parent in Family Sharing, who declares the age), or an adult range (legal category `adult`) shared with parental controls active (parental controls are set on a child's account).",
            judges: "AgeRangeShared", reads: ["AgeRangeShared"],
            evidence: "The age range.",
            basis: [.init(.appleDeclaredAgeRange, "`AgeRangeDeclaration`: `selfDeclared` is the person's own declaration, `guardianDeclared` a parent's; `activeParentalControls` are the controls a parent set through Screen Time and Family Sharing.")]),
        LedgerRule(
            id: "rescission-unverified", kind: .anomaly,
            statement: "An App Store RESCIND_CONSENT from the production environment recorded with a signature check other than `valid` (`invalid`: perhaps forged; `notChecked`): it withdraws no consent, so no rule counts it, until a notification whose signature verified is recorded. A notification from the sandbox or a test environment withdraws nothing and is no anomaly.",
            judges: "ConsentRescinded", reads: ["ConsentRescinded"],
            evidence: "The notification.", basis: [withdrawal]),
    ]
}
