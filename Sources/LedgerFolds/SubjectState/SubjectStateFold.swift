import LedgerCore

/// The `subject_state` projection's fold over one range: per key, the range's latest event of
/// each kind (the store merges it where it is later than the stored one, so folding a range twice
/// changes nothing): per subject the latest event and how many, the latest age signal (the
/// catalogue's ``EventRole/Name/ageSignal``), the latest parental controls, the first erasure; per
/// subject and platform the latest platform signal; per subject, app and feature the latest gate.
public struct SubjectStateFold: Sendable {
    /// The event types the fold reads.
    public static let reads = [
        AgeRangeShared.eventType, PlayAgeSignalReceived.eventType, AgeVerificationCompleted.eventType,
        AgeRangeDeclined.eventType, AgeRangeRequestFailed.eventType, AccessGateApplied.eventType, SubjectErased.eventType,
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

    public private(set) var subjects: [String: Subject] = [:]
    public private(set) var platformSignals: [String: PlatformSignal] = [:]
    public private(set) var features: [String: Feature] = [:]

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
        case .ageVerificationCompleted, .eligibilityChecked, .ageRangeRequested, .significantChangeDeclared,
             .significantChangeAcknowledged, .permissionQuestionSent, .permissionQuestionFailed, .parentalAnswerReceived,
             .questionExpired, .consentRescinded, .deviceRatingLimitObserved, .installAttempted, .ageExceptionRequested,
             .ageExceptionDecided, .approveInPersonFailed, .operatorDecision, .retentionApplied:
            break
        }
        subjects[subject] = entry
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
             .ageExceptionRequested, .ageExceptionDecided, .approveInPersonFailed, .operatorDecision, .retentionApplied,
             .subjectErased:
            return (event, nil, nil, nil)
        }
    }
}
