import LedgerCore

/// The `subject_state` projection's fold over one range: per key, the range's latest event of
/// each kind (the store merges it where it is later than the stored one, so folding a range twice
/// changes nothing): per subject the latest event and how many, the latest age signal (the
/// catalogue's ``EventRole/Name/ageSignal``), the latest parental controls, the first erasure; per
/// subject and platform the latest platform signal; per subject, app and feature the latest gate;
/// per subject, app and fact what the device and the stores said last (``AppFact``).
public struct SubjectStateFold: Sendable {
    /// The event types the fold reads.
    public static let reads = [
        AgeRangeShared.eventType, PlayAgeSignalReceived.eventType, AgeVerificationCompleted.eventType,
        AgeRangeDeclined.eventType, AgeRangeRequestFailed.eventType, AccessGateApplied.eventType, SubjectErased.eventType,
        EligibilityChecked.eventType, DeviceRatingLimitObserved.eventType, StoreConsentStatusReceived.eventType,
        InstallAttempted.eventType, ApproveInPersonPresented.eventType, ApproveInPersonFailed.eventType,
    ]

    /// What the range says of one subject.
    public struct Subject: Sendable {
        /// The column `subject` (snake_case in the projection's tables.sql).
        public var subject: String
        /// The range's latest event about the subject, and how many it has.
        public var latest: LedgerEvent
        /// How many of the range's events are about the subject.
        public var count: Int
        /// The latest age signal, and what it says.
        public var age: (event: LedgerEvent, lower: Int?, upper: Int?, declaration: String?)?
        /// The latest `AgeRangeShared`'s active parental controls (empty when it names none).
        public var controls: (position: Int64, controls: [String])?
        /// The first erasure.
        public var erased: LedgerEvent?
    }

    /// The latest platform signal of a subject on a platform (`unknown` when the event named no app).
    public struct PlatformSignal: Sendable {
        /// The subject, the platform (`unknown` when the event named no app) and the outcome (shared, declined, failed:<error>, Play's userStatus).
        public var subject: String, platform: String, outcome: String
        /// The event itself.
        public var event: LedgerEvent
    }

    /// The latest gate of a feature for a subject and app (`""` when the event named no app).
    public struct Feature: Sendable {
        /// The subject and the app (`""` when the event named no app).
        public var subject: String, bundleId: String
        /// The gate's payload.
        public var gate: AccessGateApplied
        /// The event itself.
        public var event: LedgerEvent
    }

    /// What the subject's device or a store said last of one fact about an app (projections/
    /// subject_state/tables.sql, `app_facts`, names the facts and their values).
    public struct AppFact: Sendable {
        /// The subject, the app (`""` when the event named none) and the fact (`eligibility`,
        /// `deviceRatingLimit`, `storeConsent:<purpose>`, `install:<appleItemID>`, `approveInPerson:<appleItemID>`).
        public var subject: String, bundleId: String, fact: String
        /// What it was, and the particulars beside it.
        public var value: String, detail: [String]
        /// The event itself.
        public var event: LedgerEvent
    }

    public private(set) var subjects: [String: Subject] = [:]
    public private(set) var platformSignals: [String: PlatformSignal] = [:]
    public private(set) var features: [String: Feature] = [:]
    public private(set) var appFacts: [String: AppFact] = [:]

    /// An empty fold.
    public init() {}

    /// Folds one event (in position order).
    public mutating func apply(_ event: LedgerEvent) {
        guard let subject = event.envelope.subject else { return }
        var entry = subjects[subject] ?? Subject(subject: subject, latest: event, count: 0)
        entry.latest = event
        entry.count += 1
        if event.plays(.ageSignal) {
            entry.age = Self.age(of: event)
        }
        let platform = event.envelope.app?.platform ?? "unknown"
        switch event.body {
        case .ageRangeShared(let p):
            entry.controls = (event.position, (p.activeParentalControls ?? []).map(\.rawValue))
            signal(subject, platform, "shared", event)
        case .ageRangeDeclined:
            signal(subject, platform, "declined", event)
        case .ageRangeRequestFailed(let p):
            signal(subject, platform, "failed:" + p.error.rawValue, event)
        case .playAgeSignalReceived(let p):
            signal(subject, platform, p.userStatus.rawValue, event)
        case .accessGateApplied(let p):
            let bundle = event.envelope.app?.bundleId ?? ""
            features[subject + "\u{0}" + bundle + "\u{0}" + p.feature] = Feature(subject: subject, bundleId: bundle, gate: p, event: event)
        case .subjectErased:
            if entry.erased == nil { entry.erased = event }
        case .eligibilityChecked(let p):
            let value = p.error?.rawValue ?? (p.isEligibleForAgeFeatures == true ? "eligible" : "notEligible")
            fact(subject, "eligibility", value, (p.requiredRegulatoryFeatures ?? []).map(\.rawValue), event)
        case .deviceRatingLimitObserved(let p):
            let limit = p.maximumAllowedAgeRating
            fact(subject, "deviceRatingLimit", limit == .unrated ? "noLimit" : limit.label, [String(limit.rawValue)], event)
        case .storeConsentStatusReceived(let p):
            fact(subject, "storeConsent:" + p.purpose.rawValue, p.status.rawValue, [p.store.rawValue] + (p.changeId.map { [$0] } ?? []), event)
        case .installAttempted(let p):
            fact(subject, "install:\(p.appleItemID)", p.outcome.rawValue, [p.ageRating.label] + (p.isUpdate == true ? ["update"] : []), event)
        case .approveInPersonPresented(let p):
            fact(subject, "approveInPerson:\(p.appleItemID)", "presented", p.exceptionId.map { [$0] } ?? [], event)
        case .approveInPersonFailed(let p):
            fact(subject, "approveInPerson:" + (p.appleItemID.map(String.init) ?? "unknown"), "failed:" + p.error.rawValue,
                 p.exceptionId.map { [$0] } ?? [], event)
        case .ageVerificationCompleted, .ageRangeRequested, .significantChangeDeclared,
             .significantChangeAcknowledged, .permissionQuestionSent, .permissionQuestionFailed, .parentalAnswerReceived,
             .questionExpired, .consentRescinded, .ageExceptionRequested, .ageExceptionDecided,
             .significantChangeNotifiedToStore, .operatorDecision, .retentionApplied, .withdrawalDelivered:
            break
        }
        subjects[subject] = entry
    }

    private mutating func fact(_ subject: String, _ fact: String, _ value: String, _ detail: [String], _ event: LedgerEvent) {
        let bundle = event.bundleId ?? ""
        appFacts[subject + "\u{0}" + bundle + "\u{0}" + fact] = AppFact(subject: subject, bundleId: bundle, fact: fact, value: value,
                                                                      detail: detail, event: event)
    }

    private mutating func signal(_ subject: String, _ platform: String, _ outcome: String, _ event: LedgerEvent) {
        platformSignals[subject + "\u{0}" + platform] = PlatformSignal(subject: subject, platform: platform, outcome: outcome, event: event)
    }

    /// An age signal's bounds and declaration: Apple's `ageRangeDeclaration`, Play's `userStatus`,
    /// an age check's `method`.
    static func age(of event: LedgerEvent) -> (event: LedgerEvent, lower: Int?, upper: Int?, declaration: String?) {
        switch event.body {
        case .ageRangeShared(let p): return (event, p.lowerBound, p.upperBound, p.ageRangeDeclaration?.rawValue)
        case .playAgeSignalReceived(let p): return (event, p.ageLower, p.ageUpper, p.userStatus.rawValue)
        case .ageVerificationCompleted(let p): return (event, p.lowerBound, p.upperBound, p.method.rawValue)
        case .eligibilityChecked, .ageRangeRequested, .ageRangeDeclined, .ageRangeRequestFailed, .significantChangeDeclared,
             .significantChangeAcknowledged, .permissionQuestionSent, .permissionQuestionFailed, .parentalAnswerReceived,
             .questionExpired, .consentRescinded, .accessGateApplied, .deviceRatingLimitObserved, .installAttempted,
             .ageExceptionRequested, .ageExceptionDecided, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore, .operatorDecision, .retentionApplied,
             .subjectErased, .withdrawalDelivered:
            return (event, nil, nil, nil)
        }
    }
}
