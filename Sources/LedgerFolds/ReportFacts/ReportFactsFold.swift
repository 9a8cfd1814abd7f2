import LedgerCore

/// The `report_facts` projection's fold: one ``FactRow`` per event, of every type. The period
/// counts and installs kept beside the facts are sums over these rows, which the database adds up
/// as it stores them (projections/report_facts/write.sql).
public enum ReportFactsFold {
    /// The event types the fold reads: all of them.
    public static let reads: [String] = EventCatalogue.eventTypes

    /// The row of `event`; `changes` holds the declarations up to it (a question's change).
    public static func row(_ event: LedgerEvent, changes: ChangeDirectory) -> FactRow {
        let envelope = event.envelope
        var row = FactRow(log: event.log, position: event.position, eventId: envelope.eventId, type: envelope.type,
                          occurredAt: envelope.occurredAt, subject: envelope.subject, bundleId: event.bundleId,
                          jurisdiction: envelope.jurisdiction?.code, environment: envelope.app?.environment, ref: event.ref)
        switch event.body {
        case .ageRangeRequested(let p):
            row.trigger = p.trigger.rawValue
        case .ageRangeShared(let p):
            row.category = event.derivedText("legalCategory")
            row.declaration = p.ageRangeDeclaration?.rawValue ?? "none"
            let controls = (p.activeParentalControls ?? []).map(\.rawValue).sorted()
            row.outcome = controls.isEmpty ? "none" : controls.joined(separator: ",")
        case .playAgeSignalReceived(let p):
            row.category = event.derivedText("legalCategory")
            row.playStatus = p.userStatus.rawValue
        case .ageVerificationCompleted(let p):
            row.checkMethod = p.method.rawValue
            row.outcome = p.outcome.rawValue
        case .ageRangeRequestFailed(let p):
            row.error = p.error.rawValue
        case .permissionQuestionFailed(let p):
            row.error = p.error.rawValue
        case .parentalAnswerReceived(let p):
            row.answer = p.answer.rawValue
            row.channel = p.channel.rawValue
            row.answeredAt = p.receivedAt
        case .ageExceptionDecided(let p):
            row.answer = p.decision.rawValue
            row.channel = p.channel.rawValue
            row.answeredAt = p.decidedAt
        case .permissionQuestionSent(let p):
            row.channel = p.sentVia.rawValue
            row.changeId = changes.changeAskedAbout(by: event)
        case .ageExceptionRequested:
            row.ratedAge = event.derivedText("ratingLabel")
        case .accessGateApplied(let p):
            row.gateState = p.state.rawValue
        case .significantChangeDeclared(let p):
            row.version = p.introducedInVersion
            row.description = p.description
        case .subjectErased(let p):
            row.subject = envelope.subject ?? p.subjectId
        case .consentRescinded(let p):
            row.answer = p.withdrawsConsent ? "withdrawn" : nil
        case .withdrawalDelivered(let p):
            row.ref = p.rescissionEventId
            row.answeredAt = p.deliveredAt
        case .eligibilityChecked(let p):
            row.outcome = p.error?.rawValue ?? (p.isEligibleForAgeFeatures == true ? "eligible" : "notEligible")
        case .installAttempted(let p):
            row.outcome = p.outcome.rawValue
        case .deviceRatingLimitObserved(let p):
            row.outcome = p.maximumAllowedAgeRating == .unrated ? "noLimit" : p.maximumAllowedAgeRating.label
        case .storeConsentStatusReceived(let p):
            row.outcome = p.status.rawValue
        case .significantChangeNotifiedToStore(let p):
            row.channel = p.store.rawValue
        case .ageRangeDeclined, .significantChangeAcknowledged, .questionExpired, .approveInPersonFailed, .approveInPersonPresented,
             .operatorDecision, .retentionApplied:
            break
        }
        return row
    }
}
