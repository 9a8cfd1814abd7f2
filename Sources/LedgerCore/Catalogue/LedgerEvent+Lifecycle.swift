/// What every fold and rule needs to know of an event beyond its own payload: which lifecycle it
/// belongs to and what a question asks. Written once here (decisions 0021, 0061).
extension LedgerEvent {
    /// The lifecycle the event belongs to: the question, exception or significant change it is
    /// about (its `questionId`, else `exceptionId`, else `changeId`); nil for the others.
    public var ref: String? {
        switch body {
        case .permissionQuestionSent(let p): return p.questionId
        case .permissionQuestionFailed(let p): return p.questionId
        case .parentalAnswerReceived(let p): return p.questionId
        case .questionExpired(let p): return p.questionId
        case .significantChangeDeclared(let p): return p.changeId
        case .significantChangeAcknowledged(let p): return p.changeId
        case .ageExceptionRequested(let p): return p.exceptionId
        case .ageExceptionDecided(let p): return p.exceptionId
        case .approveInPersonFailed(let p): return p.exceptionId
        case .approveInPersonPresented(let p): return p.exceptionId
        case .significantChangeNotifiedToStore(let p): return p.changeId
        case .storeConsentStatusReceived(let p): return p.changeId
        case .installAttempted(let p): return p.exceptionId
        case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
             .consentRescinded, .accessGateApplied, .deviceRatingLimitObserved, .playAgeSignalReceived,
             .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            return nil
        }
    }

    /// What was asked: a question's topic (``PermissionTopic/name``; a failed question's, when the
    /// app said), `ageRatingException` for an exception request; nil for the others.
    public var topic: String? {
        switch body {
        case .permissionQuestionSent(let p): return p.topic.name
        case .permissionQuestionFailed(let p): return p.topicName
        case .ageExceptionRequested: return "ageRatingException"
        case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
             .significantChangeDeclared, .significantChangeAcknowledged, .parentalAnswerReceived,
             .questionExpired, .consentRescinded, .accessGateApplied, .deviceRatingLimitObserved, .installAttempted,
             .ageExceptionDecided, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore, .playAgeSignalReceived, .ageVerificationCompleted,
             .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            return nil
        }
    }

    /// Whether an app reported it from a test or development build (`app.environment` `sandbox` or
    /// `development`): stored and replayed, but folded into no state (decision 0068).
    public var isFromTestEnvironment: Bool {
        envelope.app?.environment.map(EventEnvelope.AppInfo.testEnvironments.contains) ?? false
    }

    /// The app the event is about: the envelope's, except for a `ConsentRescinded`, which is about
    /// the app its App Store notification names.
    public var bundleId: String? {
        if case .consentRescinded(let p) = body { return p.bundleId }
        return envelope.app?.bundleId
    }
}

extension PermissionTopic {
    /// The topic as the projections and reports name it: `significantAppUpdate`, `communication`
    /// or `custom:<name>`.
    public var name: String {
        switch self {
        case .significantAppUpdate: return "significantAppUpdate"
        case .communication: return "communication"
        case .custom(let name, _): return "custom:" + name
        }
    }
}

extension LedgerEvent {
    /// Whether the event plays `role` (``EventRole``), as its type's schema declares: the one
    /// place every fold and rule asks "is this an age signal".
    public func plays(_ role: EventRole.Name) -> Bool { roles.contains(role) }
}
