import LedgerCore

extension AnomaliesFold {
    /// The rules on events other than openings (source `rule`) and the catalogue's surprising
    /// facts (source `catalogue`), each against the lookups as the range left them, through
    /// position comparisons.
    mutating func judgeOther(_ event: LedgerEvent) {
        let envelope = event.envelope, position = event.position
        func finding(_ rule: FoldedRule, _ detail: String, _ evidence: [Int64],
                     times: (String?, String?) = (nil, nil), when condition: (after: String, before: String)? = nil) {
            findings.append(R.Finding(position: position, kind: rule.rawValue, eventId: envelope.eventId, subject: envelope.subject,
                                      source: rule.source, detail: detail, times: times, condition: condition, evidence: evidence))
        }
        switch event.body {
        case .significantChangeAcknowledged(let p):
            let change = changes[p.changeId].flatMap { $0.position < position ? $0 : nil }
            let id = p.changeId.formatLiteral
            if p.handledBy == .originalAppVersion, let change, let changeKey = change.versionKey,
               let original = VersionKey(p.originalAppVersion), original < changeKey {
                finding(.acknowledgmentVersionFalse,
                        "change \(id) was marked handled by originalAppVersion \((p.originalAppVersion ?? "").formatLiteral), "
                            + "but it was introduced in a later version", [change.position, position])
            }
            if let change {
                finding(.acknowledgmentBeforeChange, "change \(id) was acknowledged at %1$s, before it was declared (%2$s)",
                        [change.position, position], times: (envelope.occurredAt, change.occurredAt),
                        when: (after: change.occurredAt, before: envelope.occurredAt))
            } else {
                finding(.acknowledgmentBeforeChange,
                        "change \(id) was acknowledged but no SignificantChangeDeclared for it precedes it", [position])
            }
        case .parentalAnswerReceived(let p):
            let id = p.questionId.formatLiteral
            let question = questions[p.questionId]
            let before = question.flatMap { $0.position < position ? $0 : nil }
            if let before {
                finding(.answerBeforeQuestion, "the answer on question \(id) occurred at %1$s, before the question (%2$s)",
                        [before.position, position], times: (envelope.occurredAt, before.occurredAt),
                        when: (after: before.occurredAt, before: envelope.occurredAt))
            } else {
                finding(.answerBeforeQuestion, "the answer on question \(id) has no PermissionQuestionSent before it", [position])
            }
            if let question, let expired = question.expiredPosition, expired < position {
                finding(.answerAfterQuestionExpired,
                        "the answer to question \(id) came after it expired (position \(expired))", [expired, position])
            }
            if let before, let expires = before.expiresAt {
                finding(.answerAfterExpiry, "answered at %1$s, after the question expired at %2$s",
                        [before.position, position], times: (envelope.occurredAt, expires),
                        when: (after: envelope.occurredAt, before: expires))
            }
        case .installAttempted(let p):
            guard p.outcome == .installed, p.requestAgeException, let subject = envelope.subject else { break }
            let item = Int64(p.appleItemID)
            let mine = exceptions.values.filter { $0.subject == subject && $0.appleItemId == item }
            // A withdrawal of consent for the app after the approval, not answered by a new one, voids it.
            let withdrawal = rescissions[subject]?.last { $0.appleItemId == item && $0.stands(at: position) }
            let approvals = mine.compactMap { x in x.approvedPosition.flatMap { $0 < position ? $0 : nil } }
            guard !approvals.contains(where: { approved in withdrawal.map { $0.position < approved } ?? true }) else { break }
            let requested = mine.compactMap { x in x.requestedPosition.flatMap { $0 < position ? $0 : nil } }.max()
            if let withdrawal, let approved = approvals.max() {
                finding(.exceptionInstallWithoutApproval,
                        "app \(p.appleItemID) was installed with an age-rating exception whose approval (position \(approved)) "
                            + "was withdrawn by the App Store RESCIND_CONSENT at position \(withdrawal.position)",
                        [approved, withdrawal.position, position].sorted())
            } else {
                finding(.exceptionInstallWithoutApproval,
                        "app \(p.appleItemID) was installed with an age-rating exception, and no approved exception for it is on record",
                        [requested, position].compactMap { $0 }.sorted())
            }
        case .ageExceptionDecided(let p):
            let id = p.exceptionId.formatLiteral
            let exception = exceptions[p.exceptionId]
            if p.decision == .approved, p.channel == .inPerson, p.guardianAuthenticated != true {
                let requested = exception?.requestedPosition.flatMap { $0 < position ? $0 : nil }
                finding(.inPersonApprovalUnauthenticated,
                        "exception \(id) was approved in person with no guardian authentication recorded",
                        [requested, position].compactMap { $0 }.sorted())
            }
            if let decided = exception?.decidedPosition, decided < position {
                finding(.exceptionDecidedTwice, "exception-\(id) was already decided at position \(decided)",
                        [decided, position])
            }
            if let exception, exception.requestedPosition.map({ $0 > position }) ?? true {
                finding(.decisionWithoutRequest,
                        "the decision on exception-\(id) has no AgeExceptionRequested before it", [position])
            }
        case .significantChangeDeclared(let p):
            guard let change = changes[p.changeId], change.position < position else { break }
            let description = p.description != change.description
            if description || VersionKey(p.introducedInVersion) != change.versionKey {
                finding(.changeRedeclared,
                        "change \(p.changeId.formatLiteral) was declared again (first at position \(change.position)) with a different "
                            + (description ? "description" : "version"), [change.position, position])
            }
        case .consentRescinded(let p):
            guard p.environment == .production, !p.withdrawsConsent else { break }
            finding(.rescissionUnverified,
                    "the App Store's RESCIND_CONSENT \(p.notificationUUID) for \(p.bundleId.formatLiteral) was recorded with signature check "
                        + "\(p.signatureCheck.rawValue): it withdraws no consent until a notification whose signature verified is recorded",
                    [position])
        case .ageRangeShared(let p):
            let category = event.derivedText("legalCategory")
            if p.ageRangeDeclaration == .selfDeclared, category == "under13" {
                finding(.implausibleDeclaration,
                        "a range under 13 was self-declared, but a child under 13 has an Apple Account only through a parent in Family Sharing, "
                            + "who declares the age", [position])
            }
            if category == "adult", !(p.activeParentalControls ?? []).isEmpty {
                finding(.implausibleDeclaration,
                        "an adult range came with parental controls active ("
                            + (p.activeParentalControls ?? []).map(\.rawValue).sorted().joined(separator: ", ")
                            + "): parental controls are set on a child's account", [position])
            }
        case .eligibilityChecked, .ageRangeRequested, .ageRangeDeclined, .ageRangeRequestFailed,
             .permissionQuestionSent, .permissionQuestionFailed, .questionExpired, .accessGateApplied,
             .deviceRatingLimitObserved, .ageExceptionRequested, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
             .significantChangeNotifiedToStore, .playAgeSignalReceived,
             .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
            break
        }
        // A device clock more than a year ahead of the ledger's: the store's statement makes the
        // exact call (a calendar year); this takes every candidate (more than 364 days).
        if let occurred = RFC3339.epochSeconds(envelope.occurredAt), let recorded = RFC3339.epochSeconds(event.recordedAt),
           occurred > recorded + 364 * 86_400 {
            finding(.occurredInFuture, "occurredAt %1$s is %3$s after the ledger recorded the event", [position],
                    times: (envelope.occurredAt, event.recordedAt), when: (after: envelope.occurredAt, before: event.recordedAt))
        }
    }
}
