import LedgerCore

/// The `anomalies` projection's fold: the lookups the rules read (age signals, requirements, the
/// version each install was first seen with, changes, questions, acknowledgments, a parent's word,
/// rescissions, exceptions), then the rules of the rules catalogue (docs/rules.md) on the range's
/// events, each judged against rows at earlier positions only.
///
/// A range is folded as the SQL fold it replaces did, step by step over the whole range (every
/// lookup of the range first, then the rules), over the stored rows its keys need (``Needs``,
/// ``Stored``), so that findings do not depend on where the log was cut.
public struct AnomaliesFold: Sendable {
    /// Shorthand for the row types.
    public typealias R = AnomalyRows

    /// The event types the fold reads.
    public static let reads = [
        AgeRangeShared.eventType, AgeRangeDeclined.eventType, PlayAgeSignalReceived.eventType, AgeVerificationCompleted.eventType,
        EligibilityChecked.eventType, SignificantChangeDeclared.eventType, SignificantChangeAcknowledged.eventType,
        PermissionQuestionSent.eventType, ParentalAnswerReceived.eventType, QuestionExpired.eventType,
        ConsentRescinded.eventType, AccessGateApplied.eventType, AgeExceptionRequested.eventType,
        AgeExceptionDecided.eventType, InstallAttempted.eventType,
    ]

    /// The stored rows a range needs, by key.
    public struct Needs: Sendable {
        /// Subjects with an opened feature: their latest age signal and decline, answers, holding acknowledgments.
        public var openingSubjects: Set<String> = []
        /// Subjects with any gate, exception install, answer or exception decision: their withdrawals of consent.
        public var gateSubjects: Set<String> = []
        /// (subject, app or "") of opened features: the latest requirement.
        public var requirementKeys: Set<[String]> = []
        /// (subject, app) of the range's events: the version first seen.
        public var installKeys: Set<[String]> = []
        /// Change ids named (acknowledgments, declarations), and apps with an opened feature.
        public var changeIds: Set<String> = [], bundles: Set<String> = []
        /// Question ids named (questions, answers, expiries).
        public var questionIds: Set<String> = []
        /// Exception ids named, and (subject, appleItemID) of exception installs.
        public var exceptionIds: Set<String> = [], exceptionInstalls: Set<[String]> = []
        /// The event ids opened features cite (their basis): the age signals among them.
        public var citedIds: Set<String> = []
    }

    /// The stored rows ``Needs`` names.
    public struct Stored: Sendable {
        /// The stored age signals (the latest per subject), requirements (the latest per subject and app) and first-seen rows.
        public var ageSignals: [R.AgeSignal] = [], requirements: [R.Requirement] = [], firstSeen: [R.FirstSeen] = []
        /// The stored declines (the latest per subject).
        public var declines: [R.Decline] = []
        /// The stored age signals that opened features cite (``Needs/citedIds``), at any position.
        public var citedSignals: [R.AgeSignal] = []
        /// The stored changes, questions and holding acknowledgments.
        public var changes: [R.Change] = [], questions: [R.Question] = [], acknowledgments: [R.Acknowledgment] = []
        /// The stored answers, rescissions and exceptions.
        public var answers: [R.Answer] = [], rescissions: [R.Rescission] = [], exceptions: [R.Exception] = []
        /// Creates it.
        public init() {}
    }

    // State: stored rows and the range's new ones.
    var ageSignals: [String: [R.AgeSignal]] = [:]
    /// Age signals by event id: the stored ones loaded and the range's (what a gate cites).
    var signalsById: [String: R.AgeSignal] = [:]
    var declines: [String: [R.Decline]] = [:]
    var requirements: [[String]: [R.Requirement]] = [:]
    var firstSeen: [[String]: R.FirstSeen] = [:]
    var changes: [String: R.Change] = [:]
    var questions: [String: R.Question] = [:]
    var acknowledgments: [String: [R.Acknowledgment]] = [:]
    var answers: [String: [R.Answer]] = [:]
    var rescissions: [String: [R.Rescission]] = [:]
    var exceptions: [String: R.Exception] = [:]
    let directory: ChangeDirectory

    // What the range adds.
    public internal(set) var newAgeSignals: [R.AgeSignal] = []
    public internal(set) var newDeclines: [R.Decline] = []
    public internal(set) var newRequirements: [R.Requirement] = []
    /// The installs first seen in the range (``newFirstSeen``).
    var newFirstSeenKeys: [[String]] = []
    /// Stored installs the range gave an original version: (subject, app, version key, position).
    public internal(set) var originalStored: [(String, String, VersionKey, Int64)] = []
    public internal(set) var newChanges: [R.Change] = []
    public internal(set) var newQuestionIds: [String] = []
    /// Stored questions the range expired: (questionId, position).
    public internal(set) var expiredStored: [(String, Int64)] = []
    public internal(set) var newAcknowledgments: [R.Acknowledgment] = []
    public internal(set) var newAnswers: [R.Answer] = []
    public internal(set) var newRescissionPositions: [Int64] = []
    /// Stored rescissions the range enforced: (rescission position, gate position, gate event id, gate occurredAt).
    public internal(set) var enforcedStored: [(Int64, Int64, String, String)] = []
    /// Stored withdrawals the range answered with an approval: (rescission position, approval position).
    public internal(set) var reapprovedStored: [(Int64, Int64)] = []
    /// The range's exception aggregates, merged into the stored rows field by field (the first stays).
    public internal(set) var exceptionUpdates: [R.Exception] = []
    public internal(set) var openings: [R.Opening] = []
    /// Per opening with an age signal: (position, subject, signal position, opening occurredAt, signal occurredAt).
    public internal(set) var signalAges: [(Int64, String, Int64, String, String)] = []
    public internal(set) var findings: [R.Finding] = []

    /// A fold over `stored`; `directory` resolves which change a question asks about.
    public init(stored: Stored, changes directory: ChangeDirectory) {
        self.directory = directory
        for row in stored.ageSignals { ageSignals[row.subject, default: []].append(row) }
        for row in stored.ageSignals + stored.citedSignals { signalsById[row.eventId.lowercased()] = row }
        for row in stored.declines { declines[row.subject, default: []].append(row) }
        for row in stored.requirements { requirements[[row.subject, row.bundleId], default: []].append(row) }
        for row in stored.firstSeen { firstSeen[[row.subject, row.bundleId]] = row }
        for row in stored.changes { changes[row.changeId] = row }
        for row in stored.questions { questions[row.questionId] = row }
        for row in stored.acknowledgments { acknowledgments[row.subject, default: []].append(row) }
        for row in stored.answers { answers[row.subject, default: []].append(row) }
        for row in stored.rescissions { rescissions[row.subject, default: []].append(row) }
        for row in stored.exceptions { exceptions[row.exceptionId] = row }
        for key in ageSignals.keys { ageSignals[key]?.sort { $0.position < $1.position } }
        for key in declines.keys { declines[key]?.sort { $0.position < $1.position } }
        for key in requirements.keys { requirements[key]?.sort { $0.position < $1.position } }
        for key in answers.keys { answers[key]?.sort { $0.position < $1.position } }
        for key in acknowledgments.keys { acknowledgments[key]?.sort { $0.position < $1.position } }
        for key in rescissions.keys { rescissions[key]?.sort { $0.position < $1.position } }
    }

    /// The stored rows `events` need.
    public static func needs(_ events: [LedgerEvent]) -> Needs {
        var needs = Needs()
        for event in events {
            let envelope = event.envelope
            let app = envelope.app?.bundleId
            if let subject = envelope.subject, let app { needs.installKeys.insert([subject, app]) }
            switch event.body {
            case .accessGateApplied(let p):
                guard let subject = envelope.subject else { continue }
                needs.gateSubjects.insert(subject)
                if p.state == .open {
                    needs.openingSubjects.insert(subject)
                    needs.citedIds.formUnion(p.basis.map { $0.lowercased() })
                    needs.requirementKeys.insert([subject, app ?? ""])
                    if let app { needs.bundles.insert(app) }
                }
            case .significantChangeDeclared(let p): needs.changeIds.insert(p.changeId)
            case .significantChangeAcknowledged(let p): needs.changeIds.insert(p.changeId)
            case .permissionQuestionSent(let p): needs.questionIds.insert(p.questionId)
            case .parentalAnswerReceived(let p):
                needs.questionIds.insert(p.questionId)
                if let subject = envelope.subject { needs.gateSubjects.insert(subject) }
            case .questionExpired(let p): needs.questionIds.insert(p.questionId)
            case .ageExceptionRequested(let p): needs.exceptionIds.insert(p.exceptionId)
            case .ageExceptionDecided(let p):
                needs.exceptionIds.insert(p.exceptionId)
                if let subject = envelope.subject { needs.gateSubjects.insert(subject) }
            case .installAttempted(let p):
                if let subject = envelope.subject {
                    needs.exceptionInstalls.insert([subject, String(p.appleItemID)])
                    needs.gateSubjects.insert(subject)
                }
            case .ageRangeShared, .playAgeSignalReceived, .ageVerificationCompleted, .eligibilityChecked, .consentRescinded,
                 .ageRangeRequested, .ageRangeDeclined, .ageRangeRequestFailed, .permissionQuestionFailed,
                 .deviceRatingLimitObserved, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
                 .significantChangeNotifiedToStore, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
                continue
            }
        }
        return needs
    }

    /// Folds a range's events (in position order): the lookups, then the rules.
    public mutating func fold(_ events: [LedgerEvent]) {
        lookups(events)
        for event in events {
            if case .accessGateApplied(let gate) = event.body, gate.state == .open, let subject = event.envelope.subject {
                judgeOpening(event, gate: gate, subject: subject)
            }
        }
        for event in events { judgeOther(event) }
    }
}
