import LedgerCore

/// A question or an age-rating exception request, as the folds that follow one key them: its kind
/// (`question`, `exception`) and its questionId or exceptionId.
public struct ItemKey: Hashable, Sendable {
    /// `question` or `exception`.
    public var kind: String
    /// The questionId or exceptionId.
    public var id: String

    /// Creates a key.
    public init(kind: String, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The item `event` asks, answers, expires, fails or decides, if any.
    public static func of(_ event: LedgerEvent) -> ItemKey? {
        switch event.body {
        case .permissionQuestionSent(let p): return ItemKey(kind: "question", id: p.questionId)
        case .permissionQuestionFailed(let p): return ItemKey(kind: "question", id: p.questionId)
        case .parentalAnswerReceived(let p): return ItemKey(kind: "question", id: p.questionId)
        case .questionExpired(let p): return ItemKey(kind: "question", id: p.questionId)
        case .ageExceptionRequested(let p): return ItemKey(kind: "exception", id: p.exceptionId)
        case .ageExceptionDecided(let p): return ItemKey(kind: "exception", id: p.exceptionId)
        case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
             .significantChangeDeclared, .significantChangeAcknowledged, .consentRescinded, .accessGateApplied,
             .deviceRatingLimitObserved, .installAttempted, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore, .playAgeSignalReceived,
             .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            return nil
        }
    }
}
