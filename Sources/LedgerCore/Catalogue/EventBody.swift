/// A typed payload of any catalogue type: what a fold or a rule switches on.
///
/// One case per event type of ``EventCatalogue/schemas``, holding the payload at its current
/// schema version (an older stored version is upcast when the event is read, ``LedgerEvent``).
/// Folds switch over it **without** `default:`, so that a new event type does not compile until
/// every fold says what it does with it. Each payload type gives its own case (``EventPayload/body``).
public enum EventBody: Sendable, Equatable {
    /// `EligibilityChecked`.
    case eligibilityChecked(EligibilityChecked)
    /// `AgeRangeRequested`.
    case ageRangeRequested(AgeRangeRequested)
    /// `AgeRangeShared`.
    case ageRangeShared(AgeRangeShared)
    /// `AgeRangeDeclined`.
    case ageRangeDeclined(AgeRangeDeclined)
    /// `AgeRangeRequestFailed`.
    case ageRangeRequestFailed(AgeRangeRequestFailed)
    /// `SignificantChangeDeclared`.
    case significantChangeDeclared(SignificantChangeDeclared)
    /// `SignificantChangeAcknowledged`.
    case significantChangeAcknowledged(SignificantChangeAcknowledged)
    /// `PermissionQuestionSent`.
    case permissionQuestionSent(PermissionQuestionSent)
    /// `PermissionQuestionFailed`.
    case permissionQuestionFailed(PermissionQuestionFailed)
    /// `ParentalAnswerReceived`.
    case parentalAnswerReceived(ParentalAnswerReceived)
    /// `QuestionExpired`.
    case questionExpired(QuestionExpired)
    /// `ConsentRescinded`.
    case consentRescinded(ConsentRescinded)
    /// `AccessGateApplied`.
    case accessGateApplied(AccessGateApplied)
    /// `DeviceRatingLimitObserved`.
    case deviceRatingLimitObserved(DeviceRatingLimitObserved)
    /// `InstallAttempted`.
    case installAttempted(InstallAttempted)
    /// `AgeExceptionRequested`.
    case ageExceptionRequested(AgeExceptionRequested)
    /// `AgeExceptionDecided`.
    case ageExceptionDecided(AgeExceptionDecided)
    /// `ApproveInPersonFailed`.
    case approveInPersonFailed(ApproveInPersonFailed)
    /// `ApproveInPersonPresented`.
    case approveInPersonPresented(ApproveInPersonPresented)
    /// `StoreConsentStatusReceived`.
    case storeConsentStatusReceived(StoreConsentStatusReceived)
    /// `SignificantChangeNotifiedToStore`.
    case significantChangeNotifiedToStore(SignificantChangeNotifiedToStore)
    /// `PlayAgeSignalReceived`.
    case playAgeSignalReceived(PlayAgeSignalReceived)
    /// `AgeVerificationCompleted`.
    case ageVerificationCompleted(AgeVerificationCompleted)
    /// `OperatorDecision`.
    case operatorDecision(OperatorDecision)
    /// `RetentionApplied`.
    case retentionApplied(RetentionApplied)
    /// `SubjectErased`.
    case subjectErased(SubjectErased)
    /// `WithdrawalDelivered`.
    case withdrawalDelivered(WithdrawalDelivered)

    /// The payload, untyped.
    public var payload: any EventPayload {
        switch self {
        case .eligibilityChecked(let payload): return payload
        case .ageRangeRequested(let payload): return payload
        case .ageRangeShared(let payload): return payload
        case .ageRangeDeclined(let payload): return payload
        case .ageRangeRequestFailed(let payload): return payload
        case .significantChangeDeclared(let payload): return payload
        case .significantChangeAcknowledged(let payload): return payload
        case .permissionQuestionSent(let payload): return payload
        case .permissionQuestionFailed(let payload): return payload
        case .parentalAnswerReceived(let payload): return payload
        case .questionExpired(let payload): return payload
        case .consentRescinded(let payload): return payload
        case .accessGateApplied(let payload): return payload
        case .deviceRatingLimitObserved(let payload): return payload
        case .installAttempted(let payload): return payload
        case .ageExceptionRequested(let payload): return payload
        case .ageExceptionDecided(let payload): return payload
        case .approveInPersonFailed(let payload): return payload
        case .approveInPersonPresented(let payload): return payload
        case .storeConsentStatusReceived(let payload): return payload
        case .significantChangeNotifiedToStore(let payload): return payload
        case .playAgeSignalReceived(let payload): return payload
        case .ageVerificationCompleted(let payload): return payload
        case .operatorDecision(let payload): return payload
        case .retentionApplied(let payload): return payload
        case .subjectErased(let payload): return payload
        case .withdrawalDelivered(let payload): return payload
        }
    }

    /// The event type's name (`AgeRangeShared`).
    public var type: String { Swift.type(of: payload).eventType }
}
