import LedgerCore

extension AnomaliesFold {
    /// The minors' legal categories (the rules' "a minor").
    static let minors: Set<String> = ["under13", "13to15", "16to17", "18toMajority"]

    /// The legal categories from youngest to oldest, as ``LegalCategory`` declares them (`unknown`
    /// is in no order).
    static let bands = LegalCategory.allCases.filter { $0 != .unknown }.map(\.rawValue)

    /// Judges one opening of a feature against what stood before it: the subject's latest age
    /// signal, the latest requirement DeclaredAgeRange gave the app for the subject, the app's
    /// significant change in force (the latest declared before the gate, introduced in or before
    /// the gate's app version and after the version the subject first had, when they are dotted
    /// numbers), the parent's latest word on that change, whether the subject acknowledged the
    /// change, and a withdrawal of consent for the app still standing. Records every fact in
    /// ``openings`` (what `explain` shows), the signal's age, and the findings.
    mutating func judgeOpening(_ gate: LedgerEvent, gate payload: AccessGateApplied, subject: String) {
        let position = gate.position
        let app = gate.envelope.app?.bundleId
        let age = ageSignals[subject]?.last { $0.position < position }
        let requirement = requirements[[subject, app ?? ""]]?.last { $0.position < position }
        let first = app.flatMap { firstSeen[[subject, $0]] }
        let original = first?.original(before: position)
        let gateVersion = VersionKey(gate.envelope.app?.appVersion)
        // A change introduced in or before the version the subject first used the app at was part of
        // the app when they got it: no change for them. Without that version on record the change is
        // judged in force (the conservative default), and a finding resting on it needs review when
        // the ledger first saw the subject at a version that already had it.
        let change = app.flatMap { app in
            changes.values.filter { c in
                c.bundleId == app && c.position < position
                    && (c.versionKey == nil || gateVersion == nil || c.versionKey! <= gateVersion!)
                    && (c.versionKey == nil || original == nil || c.versionKey! > original!)
            }.max { $0.position < $1.position }
        }
        var needsReview: String?
        if let change, original == nil, let changeKey = change.versionKey, let seen = first?.versionKey, changeKey <= seen {
            needsReview = "the version the subject first used the app at is not on record (no app.originalAppVersion before the opening); "
                + "the ledger first saw them at version \(seen.parts.map(String.init).joined(separator: ".")), which already had change "
                + "\(change.changeId): if they installed that version or a later one, the change was no change for them"
        }
        let word = change.flatMap { change in
            answers[subject]?.last { p in
                p.position < position
                    && (p.changeId == change.changeId || (p.changeId == nil && p.bundleId == app && p.position > change.position))
            }
        }
        let withdrawal = app.flatMap { app in
            rescissions[subject]?.last { $0.bundleId == app && $0.stands(at: position) }
        }
        let acknowledgment = change.flatMap { change in
            acknowledgments[subject]?.last { $0.changeId == change.changeId && $0.holds && $0.position < position }
        }
        let consent = (requirement?.eligible ?? false) && (requirement?.parentalConsent ?? false)
        let notification = (requirement?.eligible ?? false) && (requirement?.adultNotification ?? false)
        openings.append(R.Opening(position: position, subject: subject, age: age, requirement: requirement,
                                  consentRequired: consent, notificationRequired: notification, change: change, word: word,
                                  withdrawalPosition: withdrawal?.position, acknowledgmentPosition: acknowledgment?.position,
                                  needsReview: needsReview))
        if let age {
            signalAges.append((position, subject, age.position, gate.envelope.occurredAt, age.occurredAt))
        }

        let bundle = (app ?? "").formatLiteral, feature = payload.feature.formatLiteral
        let changeText = (change?.changeId ?? "").formatLiteral
        let category = age?.category
        func finding(_ rule: FoldedRule, _ detail: String, _ evidence: [Int64], restsOnChange: Bool = true) {
            findings.append(R.Finding(position: position, kind: rule.rawValue, eventId: gate.envelope.eventId, subject: subject,
                                      source: rule.source, detail: detail, evidence: evidence,
                                      needsReview: restsOnChange ? needsReview : nil))
        }
        if let word, let change, word.answer == "denial", category != "adult" {
            finding(.accessAfterDenial, "\(bundle) opened \(feature) after the parent denied change \(changeText) (position \(word.position))",
                    [change.position, word.position, position])
        }
        if let change, let category, Self.minors.contains(category), consent || (age?.approvalRequired ?? false), word == nil {
            let which = consent ? "DeclaredAgeRange required parental consent for" : "the device's parental controls required approval of"
            let detail = "\(bundle) opened \(feature) to a minor (\(category.formatLiteral)) with no approval on record for change \(changeText), which \(which)"
            let evidence = [age?.position, consent ? requirement?.position : nil, change.position, position]
            finding(.accessWithoutApproval, detail, Array(Set(evidence.compactMap { $0 })).sorted())
        }
        if let withdrawal {
            finding(.accessAfterRescission,
                    "\(bundle) opened \(feature) after consent for the app was withdrawn (App Store RESCIND_CONSENT at position "
                        + "\(withdrawal.position)), with no approval given since", [withdrawal.position, position], restsOnChange: false)
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
        // Without an age signal (none on record, or the person declined to share one since the
        // latest), an app DeclaredAgeRange made eligible must apply its most restrictive default.
        let declined = declines[subject]?.last { $0.position < position && $0.position > (age?.position ?? 0) }
        if let requirement, requirement.eligible, age == nil || declined != nil {
            let why = declined.map { "after the person declined to share an age range (position \($0.position))" } ?? "with no age signal on record"
            finding(.accessWithoutAgeSignal,
                    "\(bundle) opened \(feature) \(why), although DeclaredAgeRange made the app eligible for age features "
                        + "(position \(requirement.position)): without a signal it must apply its most restrictive default",
                    [requirement.position, declined?.position, position].compactMap { $0 }.sorted(), restsOnChange: false)
        }
        // The app cited an age signal that a later one, recorded before the opening and not cited,
        // had replaced with a younger band: it acted on a range it had been told was no longer the person's.
        let cited = payload.basis.compactMap { signalsById[$0.lowercased()] }.filter { $0.subject == subject && $0.position < position }
        if let age, let later = age.category.flatMap(Self.bands.firstIndex(of:)),
           let relied = cited.max(by: { $0.position < $1.position }), relied.position < age.position,
           let earlier = relied.category.flatMap(Self.bands.firstIndex(of:)), earlier > later {
            finding(.signalDisregarded,
                    "\(bundle) opened \(feature) citing the age signal at position \(relied.position) (\(Self.bands[earlier])), "
                        + "though a later signal at position \(age.position) said \(Self.bands[later]) and was not cited",
                    [relied.position, age.position, position], restsOnChange: false)
        }
        if payload.basis.isEmpty {
            finding(.accessOpenedWithoutBasis, "\(feature) was opened for \(subject.formatLiteral) citing no event", [position],
                    restsOnChange: false)
        }
    }
}
