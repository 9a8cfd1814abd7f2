import LedgerCore

extension AnomaliesFold {
    /// The lookup tables, each step over the whole range in the SQL fold's order (fold.sql before
    /// decision 0061): age signals, requirements, first seen, changes, questions and their
    /// expiries, acknowledgments, answers, rescissions and their enforcement, exceptions.
    mutating func lookups(_ events: [LedgerEvent]) {
        for event in events {
            guard let subject = event.envelope.subject, event.plays(.ageSignal) else { continue }
            let approval: Bool
            switch event.body {
            case .ageRangeShared(let p): approval = (p.activeParentalControls ?? []).contains(.significantAppChangeApprovalRequired)
            case .playAgeSignalReceived(let p): approval = p.userStatus.rawValue.hasPrefix("SUPERVISED")
            case .eligibilityChecked, .ageRangeRequested, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionSent,
                 .permissionQuestionFailed, .parentalAnswerReceived, .questionExpired, .consentRescinded,
                 .accessGateApplied, .deviceRatingLimitObserved, .installAttempted, .ageExceptionRequested,
                 .ageExceptionDecided, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
                 .significantChangeNotifiedToStore, .ageVerificationCompleted, .operatorDecision,
                 .retentionApplied, .subjectErased, .withdrawalDelivered:
                approval = false
            }
            var verified = false
            if case .bool(let flag)? = event.derived["verifiedAdult"] { verified = flag }
            let row = R.AgeSignal(subject: subject, position: event.position, occurredAt: event.envelope.occurredAt,
                                  eventId: event.envelope.eventId, category: event.derivedText("legalCategory"),
                                  verifiedAdult: verified, approvalRequired: approval)
            ageSignals[subject, default: []].append(row)
            signalsById[row.eventId.lowercased()] = row
            newAgeSignals.append(row)
        }
        for event in events {
            guard case .ageRangeDeclined = event.body, let subject = event.envelope.subject else { continue }
            let row = R.Decline(subject: subject, position: event.position)
            declines[subject, default: []].append(row)
            newDeclines.append(row)
        }
        for event in events {
            guard case .eligibilityChecked(let p) = event.body, let subject = event.envelope.subject,
                  let eligible = p.isEligibleForAgeFeatures else { continue }
            let features = p.requiredRegulatoryFeatures ?? []
            let row = R.Requirement(subject: subject, bundleId: event.envelope.app?.bundleId ?? "", position: event.position,
                                    eligible: eligible,
                                    parentalConsent: features.contains(.significantAppChangeRequiresParentalConsent),
                                    adultNotification: features.contains(.significantAppChangeRequiresAdultNotification))
            requirements[[row.subject, row.bundleId], default: []].append(row)
            newRequirements.append(row)
        }
        let storedInstalls = Set(firstSeen.keys)
        for event in events {
            guard let subject = event.envelope.subject, let app = event.envelope.app?.bundleId else { continue }
            let key = [subject, app]
            let original = Self.originalVersion(event)
            guard var row = firstSeen[key] else {
                firstSeen[key] = R.FirstSeen(subject: subject, bundleId: app, position: event.position,
                                             versionKey: VersionKey(event.envelope.app?.appVersion),
                                             originalVersionKey: original, originalPosition: original.map { _ in event.position })
                newFirstSeenKeys.append(key)
                continue
            }
            guard row.originalVersionKey == nil, let original else { continue }
            (row.originalVersionKey, row.originalPosition) = (original, event.position)
            firstSeen[key] = row
            if storedInstalls.contains(key) { originalStored.append((subject, app, original, event.position)) }
        }
        for event in events {
            guard case .significantChangeDeclared(let p) = event.body, changes[p.changeId] == nil else { continue }
            let row = R.Change(changeId: p.changeId, bundleId: event.envelope.app?.bundleId,
                               versionKey: VersionKey(p.introducedInVersion), description: p.description,
                               occurredAt: event.envelope.occurredAt, position: event.position)
            changes[p.changeId] = row
            newChanges.append(row)
        }
        for event in events {
            guard case .permissionQuestionSent(let p) = event.body, questions[p.questionId] == nil else { continue }
            questions[p.questionId] = R.Question(questionId: p.questionId, subject: event.envelope.subject,
                                                 changeId: directory.changeAskedAbout(by: event), expiresAt: p.expirationDate,
                                                 occurredAt: event.envelope.occurredAt, position: event.position,
                                                 expiredPosition: nil)
            newQuestionIds.append(p.questionId)
        }
        // Expiries: the first after the question, of a question not expired before the range.
        let unexpired = Set(questions.filter { $0.value.expiredPosition == nil }.keys)
        let newIds = Set(newQuestionIds)
        for event in events {
            guard case .questionExpired(let p) = event.body, unexpired.contains(p.questionId),
                  var question = questions[p.questionId], question.position < event.position,
                  question.expiredPosition == nil else { continue }
            question.expiredPosition = event.position
            questions[p.questionId] = question
            if !newIds.contains(p.questionId) { expiredStored.append((p.questionId, event.position)) }
        }
        for event in events {
            guard case .significantChangeAcknowledged(let p) = event.body, let subject = event.envelope.subject else { continue }
            var holds = false
            if let change = changes[p.changeId], change.position < event.position, p.handledBy != .notRequired {
                if p.handledBy != .originalAppVersion {
                    holds = true
                } else if let changeKey = change.versionKey, let original = VersionKey(p.originalAppVersion) {
                    holds = original >= changeKey
                } else {
                    holds = true
                }
            }
            let row = R.Acknowledgment(subject: subject, position: event.position, changeId: p.changeId,
                                       handledBy: p.handledBy.rawValue, holds: holds)
            acknowledgments[subject, default: []].append(row)
            newAcknowledgments.append(row)
        }
        for event in events {
            var row: R.Answer?
            switch event.body {
            case .parentalAnswerReceived(let p):
                if let question = questions[p.questionId], question.position < event.position,
                   let change = question.changeId, let subject = question.subject {
                    row = R.Answer(subject: subject, position: event.position, bundleId: event.envelope.app?.bundleId,
                                   changeId: change, answer: p.answer.rawValue)
                }
            case .playAgeSignalReceived(let p):
                if let subject = event.envelope.subject, p.userStatus == .SUPERVISED || p.userStatus == .SUPERVISED_APPROVAL_DENIED {
                    row = R.Answer(subject: subject, position: event.position, bundleId: event.envelope.app?.bundleId,
                                   changeId: nil, answer: p.userStatus == .SUPERVISED ? "approval" : "denial")
                }
            case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionSent,
                 .permissionQuestionFailed, .questionExpired, .consentRescinded, .accessGateApplied,
                 .deviceRatingLimitObserved, .installAttempted, .ageExceptionRequested, .ageExceptionDecided,
                 .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
                 .significantChangeNotifiedToStore, .ageVerificationCompleted, .operatorDecision, .retentionApplied,
                 .subjectErased, .withdrawalDelivered:
                break
            }
            guard let row else { continue }
            answers[row.subject, default: []].append(row)
            newAnswers.append(row)
        }
        for event in events {
            guard case .consentRescinded(let p) = event.body, p.withdrawsConsent, let subject = event.envelope.subject else { continue }
            let row = R.Rescission(position: event.position, eventId: event.envelope.eventId, subject: subject,
                                   bundleId: p.bundleId, rescindedAt: event.envelope.occurredAt,
                                   enforcementAction: p.enforcementAction.rawValue,
                                   enforcedPosition: nil, enforcedEventId: nil, enforcedAt: nil,
                                   appleItemId: p.appAppleId.map(Int64.init), reapprovedPosition: nil)
            rescissions[subject, default: []].append(row)
            newRescissionPositions.append(event.position)
        }
        enforce(events)
        exceptionsStep(events)
        reapprove(events)
    }

    /// Approvals after a withdrawal: each withdrawal not answered before takes the first approval
    /// for its subject and app after it, a parent approving a question the app asked about the
    /// subject (the answer's app is the withdrawal's bundleId) or an age-rating exception the
    /// subject requested for the app (its appleItemID is the withdrawal's appAppleId). The approval
    /// names the subject in its envelope, as the question or request did.
    private mutating func reapprove(_ events: [LedgerEvent]) {
        let newPositions = Set(newRescissionPositions)
        for event in events {
            guard let subject = event.envelope.subject else { continue }
            let matches: (R.Rescission) -> Bool
            switch event.body {
            case .parentalAnswerReceived(let p):
                guard p.answer == .approval, let question = questions[p.questionId], question.subject == subject,
                      question.position < event.position,
                      let app = event.envelope.app?.bundleId else { continue }
                matches = { $0.bundleId == app }
            case .ageExceptionDecided(let p):
                guard p.decision == .approved, let exception = exceptions[p.exceptionId], exception.subject == subject,
                      let item = exception.appleItemId else { continue }
                matches = { $0.appleItemId == item }
            case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionSent,
                 .permissionQuestionFailed, .questionExpired, .consentRescinded, .accessGateApplied,
                 .deviceRatingLimitObserved, .installAttempted, .ageExceptionRequested, .approveInPersonFailed,
                 .approveInPersonPresented, .storeConsentStatusReceived, .significantChangeNotifiedToStore, .playAgeSignalReceived, .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
                continue
            }
            guard var list = rescissions[subject] else { continue }
            for index in list.indices where list[index].position < event.position && list[index].reapprovedPosition == nil
                && matches(list[index]) {
                list[index].reapprovedPosition = event.position
                if !newPositions.contains(list[index].position) { reapprovedStored.append((list[index].position, event.position)) }
            }
            rescissions[subject] = list
        }
    }

    /// Enforcement: each rescission not enforced before the range takes the first gate after it
    /// that closes a feature of its app for its subject.
    private mutating func enforce(_ events: [LedgerEvent]) {
        let newPositions = Set(newRescissionPositions)
        for event in events {
            guard case .accessGateApplied(let gate) = event.body, gate.state == .closed, let subject = event.envelope.subject,
                  let app = event.envelope.app?.bundleId, var list = rescissions[subject] else { continue }
            var changed = false
            for index in list.indices where list[index].bundleId == app && list[index].position < event.position
                && list[index].enforcedPosition == nil {
                list[index].enforcedPosition = event.position
                list[index].enforcedEventId = event.envelope.eventId
                list[index].enforcedAt = event.envelope.occurredAt
                changed = true
                if !newPositions.contains(list[index].position) {
                    enforcedStored.append((list[index].position, event.position, event.envelope.eventId, event.envelope.occurredAt))
                }
            }
            if changed { rescissions[subject] = list }
        }
    }

    /// The original app version an event reports: the envelope's `app.originalAppVersion`, or an
    /// acknowledgment marked handled through `originalAppVersion` with the version it names.
    static func originalVersion(_ event: LedgerEvent) -> VersionKey? {
        if let key = VersionKey(event.envelope.app?.originalAppVersion) { return key }
        if case .significantChangeAcknowledged(let p) = event.body, p.handledBy == .originalAppVersion {
            return VersionKey(p.originalAppVersion)
        }
        return nil
    }

    /// The installs first seen in the range, as the range leaves them.
    public var newFirstSeen: [R.FirstSeen] { newFirstSeenKeys.compactMap { firstSeen[$0] } }

    /// The new rescissions, as the range leaves them (enforced or not).
    public var newRescissions: [R.Rescission] {
        let positions = Set(newRescissionPositions)
        return rescissions.values.flatMap { $0 }.filter { positions.contains($0.position) }.sorted { $0.position < $1.position }
    }

    /// The new questions, as the range leaves them (expired or not).
    public var newQuestions: [R.Question] { newQuestionIds.compactMap { questions[$0] } }

    /// Exceptions: per exception the range's first request (its subject and app), first decision
    /// and first approval, merged into the stored row where it has none.
    private mutating func exceptionsStep(_ events: [LedgerEvent]) {
        var order: [String] = []
        var range: [String: R.Exception] = [:]
        for event in events {
            let id: String, requested: AgeExceptionRequested?, decided: AgeExceptionDecided?
            switch event.body {
            case .ageExceptionRequested(let p): (id, requested, decided) = (p.exceptionId, p, nil)
            case .ageExceptionDecided(let p): (id, requested, decided) = (p.exceptionId, nil, p)
            case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionSent,
                 .permissionQuestionFailed, .parentalAnswerReceived, .questionExpired, .consentRescinded,
                 .accessGateApplied, .deviceRatingLimitObserved, .installAttempted, .approveInPersonFailed,
                 .approveInPersonPresented, .storeConsentStatusReceived, .significantChangeNotifiedToStore,
                 .playAgeSignalReceived, .ageVerificationCompleted, .operatorDecision, .retentionApplied,
                 .subjectErased, .withdrawalDelivered:
                continue
            }
            var row = range[id] ?? R.Exception(exceptionId: id, subject: nil, appleItemId: nil, requestedPosition: nil,
                                               decidedPosition: nil, approvedPosition: nil)
            if range[id] == nil { order.append(id) }
            if let requested, row.requestedPosition == nil {
                row.requestedPosition = event.position
                row.subject = event.envelope.subject
                row.appleItemId = Int64(requested.appleItemID)
            }
            if let decided {
                if row.decidedPosition == nil { row.decidedPosition = event.position }
                if decided.decision == .approved, row.approvedPosition == nil { row.approvedPosition = event.position }
            }
            range[id] = row
        }
        for id in order {
            guard let new = range[id] else { continue }
            exceptionUpdates.append(new)
            var merged = exceptions[id] ?? new
            if exceptions[id] != nil {
                merged.subject = merged.subject ?? new.subject
                merged.appleItemId = merged.appleItemId ?? new.appleItemId
                merged.requestedPosition = merged.requestedPosition ?? new.requestedPosition
                merged.decidedPosition = merged.decidedPosition ?? new.decidedPosition
                merged.approvedPosition = merged.approvedPosition ?? new.approvedPosition
            }
            exceptions[id] = merged
        }
    }
}
