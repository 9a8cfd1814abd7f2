import LedgerCore

/// The `significant_changes` projection's fold (projections/significant_changes/tables.sql): each
/// change as first declared; each question about a change (the change resolved by
/// ``ChangeDirectory``); per change and subject the first question, the latest answer to a
/// question about it asked before the answer, and the first acknowledgment.
///
/// A range is folded over the stored questions it names (``storedQuestions``, loaded before it);
/// the fold then says what to store: new ``changes``, new ``questions`` and one merged
/// ``SubjectRow`` per change and subject the range touched.
public struct SignificantChangesFold: Sendable {
    /// A question about a change, as `significant_changes.questions` keeps it.
    public struct Question: Sendable, Equatable {
        /// The column `questionId` (snake_case in the projection's tables.sql).
        public var questionId: String
        /// The column `changeId` (snake_case in the projection's tables.sql).
        public var changeId: String
        /// The column `subject` (snake_case in the projection's tables.sql).
        public var subject: String
        /// The column `position` (snake_case in the projection's tables.sql).
        public var position: Int64

        /// Creates it.
        public init(questionId: String, changeId: String, subject: String, position: Int64) {
            self.questionId = questionId
            self.changeId = changeId
            self.subject = subject
            self.position = position
        }
    }

    /// A change as first declared in the range.
    public struct Change: Sendable, Equatable {
        /// The column `changeId` (snake_case in the projection's tables.sql).
        public var changeId: String
        /// The column `bundleId` (snake_case in the projection's tables.sql).
        public var bundleId: String?
        /// The column `introducedInVersion` (snake_case in the projection's tables.sql).
        public var introducedInVersion: String
        /// The column `description` (snake_case in the projection's tables.sql).
        public var description: String
        /// The column `ageRatingBefore` (snake_case in the projection's tables.sql).
        public var ageRatingBefore: String
        /// The column `ageRatingAfter` (snake_case in the projection's tables.sql).
        public var ageRatingAfter: String
        /// The column `declaredAt` (snake_case in the projection's tables.sql).
        public var declaredAt: String
        /// The column `declaredPosition` (snake_case in the projection's tables.sql).
        public var declaredPosition: Int64
        /// The column `declaredEventId` (snake_case in the projection's tables.sql).
        public var declaredEventId: String
    }

    /// Per change and subject: what the range adds (nil groups: nothing of that kind in the range).
    /// The store merges it: the ask only where none is stored, the answer where it is later than
    /// the stored one, the acknowledgment only where none is stored.
    public struct SubjectRow: Sendable {
        /// The column `changeId` (snake_case in the projection's tables.sql).
        public var changeId: String
        /// The column `subject` (snake_case in the projection's tables.sql).
        public var subject: String
        /// The range's first question about the change to the subject, if any.
        public var asked: (questionId: String, at: String, position: Int64, eventId: String)?
        /// The columns `answered`, `answer`, `at`, `position`, `eventId` (snake_case in the projection's tables.sql).
        public var answered: (answer: String, at: String, position: Int64, eventId: String)?
        /// The columns `acknowledged`, `at`, `position`, `eventId`, `handledBy` (snake_case in the projection's tables.sql).
        public var acknowledged: (at: String, position: Int64, eventId: String, handledBy: String)?
    }

    /// The event types the fold reads.
    public static let reads = [
        SignificantChangeDeclared.eventType, SignificantChangeAcknowledged.eventType,
        PermissionQuestionSent.eventType, ParentalAnswerReceived.eventType,
    ]

    /// The stored questions the range names, by question id.
    public var storedQuestions: [String: Question]
    /// Which change a question that names none asks about.
    public var changeDirectory: ChangeDirectory
    /// The changes first declared in the range.
    public private(set) var changes: [Change] = []
    /// The questions first stored by the range.
    public private(set) var questions: [Question] = []
    private var seenChanges: Set<String> = []
    private var seenQuestions: Set<String> = []
    private var newQuestions: [String: Question] = [:]
    private var subjectRows: [String: SubjectRow] = [:]
    private var subjectOrder: [String] = []

    /// A fold over the stored questions `storedQuestions` (those ``questionIds(in:)`` names) and
    /// the declarations `changeDirectory` holds up to the range's end.
    public init(storedQuestions: [String: Question], changeDirectory: ChangeDirectory) {
        self.storedQuestions = storedQuestions
        self.changeDirectory = changeDirectory
    }

    /// The question ids `events` name (questions and answers): the stored questions to load.
    public static func questionIds(in events: [LedgerEvent]) -> Set<String> {
        var ids: Set<String> = []
        for event in events {
            switch event.body {
            case .permissionQuestionSent(let p): ids.insert(p.questionId)
            case .parentalAnswerReceived(let p): ids.insert(p.questionId)
            case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionFailed, .questionExpired,
                 .consentRescinded, .accessGateApplied, .deviceRatingLimitObserved, .installAttempted,
                 .ageExceptionRequested, .ageExceptionDecided, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
                 .significantChangeNotifiedToStore, .playAgeSignalReceived,
                 .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
                break
            }
        }
        return ids
    }

    /// The rows per change and subject the range touched, in the order first touched.
    public var subjects: [SubjectRow] { subjectOrder.compactMap { subjectRows[$0] } }

    /// Folds one event (in position order).
    public mutating func apply(_ event: LedgerEvent) {
        let envelope = event.envelope
        switch event.body {
        case .significantChangeDeclared(let p):
            guard seenChanges.insert(p.changeId).inserted else { return }
            changes.append(Change(changeId: p.changeId, bundleId: event.bundleId, introducedInVersion: p.introducedInVersion,
                                  description: p.description, ageRatingBefore: p.ageRatingBefore.rawValue,
                                  ageRatingAfter: p.ageRatingAfter.rawValue, declaredAt: envelope.occurredAt,
                                  declaredPosition: event.position, declaredEventId: envelope.eventId))
        case .permissionQuestionSent(let p):
            // The first send of a question (with a subject) decides: about a change, it is stored
            // unless a stored row has it; about none, later sends in the range do not count.
            guard let subject = envelope.subject, seenQuestions.insert(p.questionId).inserted,
                  let change = changeDirectory.changeAskedAbout(by: event), storedQuestions[p.questionId] == nil else { return }
            let question = Question(questionId: p.questionId, changeId: change, subject: subject, position: event.position)
            questions.append(question)
            newQuestions[p.questionId] = question
            update(change, subject) { row in
                if row.asked == nil { row.asked = (p.questionId, envelope.occurredAt, event.position, envelope.eventId) }
            }
        case .parentalAnswerReceived(let p):
            guard let question = newQuestions[p.questionId] ?? storedQuestions[p.questionId],
                  question.position < event.position else { return }
            update(question.changeId, question.subject) { row in
                row.answered = (p.answer.rawValue, p.receivedAt, event.position, envelope.eventId)
            }
        case .significantChangeAcknowledged(let p):
            guard let subject = envelope.subject else { return }
            update(p.changeId, subject) { row in
                if row.acknowledged == nil {
                    row.acknowledged = (envelope.occurredAt, event.position, envelope.eventId, p.handledBy.rawValue)
                }
            }
        case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
             .permissionQuestionFailed, .questionExpired, .consentRescinded, .accessGateApplied, .deviceRatingLimitObserved,
             .installAttempted, .ageExceptionRequested, .ageExceptionDecided, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore,
             .playAgeSignalReceived, .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            return
        }
    }

    private mutating func update(_ change: String, _ subject: String, _ body: (inout SubjectRow) -> Void) {
        let key = change + "\u{0}" + subject
        if subjectRows[key] == nil {
            subjectRows[key] = SubjectRow(changeId: change, subject: subject)
            subjectOrder.append(key)
        }
        body(&subjectRows[key]!)
    }
}
