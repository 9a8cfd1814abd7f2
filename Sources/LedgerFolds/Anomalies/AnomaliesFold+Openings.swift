import LedgerCore

extension AnomaliesFold {
    /// The minors' legal categories (the rules' "a minor").
    static let minors: Set<String> = ["under13", "13to15", "16to17", "18toMajority"]

    /// Judges one opening of a feature against what stood before it: the subject's latest age
    /// signal, the latest requirement DeclaredAgeRange gave the app for the subject, the app's
    /// significant change in force (the latest declared before the gate, introduced in or before
    /// the gate's app version and after the version the subject first had, when they are dotted
    /// numbers), the parent's latest word on that change (void once a rescission for the app
    /// follows it), and whether the subject acknowledged the change. Records every fact in
    /// ``openings`` (what `explain` shows), the signal's age, and the findings.
    mutating func judgeOpening(_ gate: LedgerEvent, gate payload: AccessGateApplied, subject: String) {
        let position = gate.position
        let app = gate.envelope.app?.bundleId
        let age = ageSignals[subject]?.last { $0.position < position }
        let requirement = requirements[[subject, app ?? ""]]?.last { $0.position < position }
        let first = app.flatMap { firstSeen[[subject, $0]] }
        let gateVersion = VersionKey(gate.envelope.app?.appVersion)
        let change = app.flatMap { app in
            changes.values.filter { c in
                c.bundleId == app && c.position < position
                    && (c.versionKey == nil || gateVersion == nil || c.versionKey! <= gateVersion!)
                    && (c.versionKey == nil || first?.versionKey == nil || c.versionKey! > first!.versionKey!)
            }.max { $0.position < $1.position }
        }
        let word = change.flatMap { change in
            answers[subject]?.last { p in
                p.position < position
                    && (p.changeId == change.changeId || (p.changeId == nil && p.bundleId == app && p.position > change.position))
            }
        }
        let rescinded = word.map { word in
            word.answer == "approval" && (rescissions[subject] ?? []).contains { x in
                x.bundleId == app && x.position > word.position && x.position < position
            }
        } ?? false
        let acknowledgment = change.flatMap { change in
            acknowledgments[subject]?.last { $0.changeId == change.changeId && $0.holds && $0.position < position }
        }
        let consent = (requirement?.eligible ?? false) && (requirement?.parentalConsent ?? false)
        let notification = (requirement?.eligible ?? false) && (requirement?.adultNotification ?? false)
        openings.append(R.Opening(position: position, subject: subject, age: age, requirement: requirement,
                                  consentRequired: consent, notificationRequired: notification, change: change, word: word,
                                  approvalRescinded: rescinded, acknowledgmentPosition: acknowledgment?.position))
        if let age {
            signalAges.append((position, subject, age.position, gate.envelope.occurredAt, age.occurredAt))
        }

        let bundle = (app ?? "").formatLiteral, feature = payload.feature.formatLiteral
        let changeText = (change?.changeId ?? "").formatLiteral
        let category = age?.category
        func finding(_ rule: FoldedRule, _ detail: String, _ evidence: [Int64]) {
            findings.append(R.Finding(position: position, kind: rule.rawValue, eventId: gate.envelope.eventId, subject: subject,
                                      source: rule.source, detail: detail, evidence: evidence))
        }
        if let word, let change, word.answer == "denial", category != "adult" {
            finding(.accessAfterDenial, "\(bundle) opened \(feature) after the parent denied change \(changeText) (position \(word.position))",
                    [change.position, word.position, position])
        }
        if let change, let category, Self.minors.contains(category), consent || (age?.approvalRequired ?? false),
           word == nil || (word?.answer == "approval" && rescinded) {
            let which = consent ? "DeclaredAgeRange required parental consent for" : "the device's parental controls required approval of"
            var detail = "\(bundle) opened \(feature) to a minor (\(category.formatLiteral)) with no approval on record for change \(changeText), which \(which)"
            if rescinded, let word { detail += " (the approval at position \(word.position) was rescinded since)" }
            let evidence = [age?.position, consent ? requirement?.position : nil, change.position, rescinded ? word?.position : nil, position]
            finding(.accessWithoutApproval, detail, Array(Set(evidence.compactMap { $0 })).sorted())
        }
        if let change, category == "adult", age?.verifiedAdult == true, notification, acknowledgment == nil {
            finding(.adultAccessWithoutAcknowledgment,
                    "\(bundle) opened \(feature) to a verified adult with no acknowledgment on record of change \(changeText), "
                        + "which DeclaredAgeRange required adults to be shown",
                    [age?.position, requirement?.position, change.position, position].compactMap { $0 }.sorted())
        }
        if let change, category == "adult", age?.verifiedAdult == false, notification {
            finding(.unverifiedAdultAccess,
                    "\(bundle) opened \(feature) to an adult whose age is not verified, while change \(changeText), which DeclaredAgeRange "
                        + "required adults to be shown, was in force",
                    [age?.position, requirement?.position, change.position, position].compactMap { $0 }.sorted())
        }
        if payload.basis.isEmpty {
            finding(.accessOpenedWithoutBasis, "\(feature) was opened for \(subject.formatLiteral) citing no event", [position])
        }
    }
}
