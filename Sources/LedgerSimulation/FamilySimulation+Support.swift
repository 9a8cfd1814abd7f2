import LedgerCore
/// What happens around the apps: a parent rescinds consent through the App Store, a support or
/// compliance person writes an operator decision.
extension SimulatedFamily {
    /// `RESCIND_CONSENT` arrives for a child with a feature opened on consent: the app's server
    /// records `ConsentRescinded` as itself (actor `app`, with its own signature check and the
    /// action taken), then the app closes the feature citing it. Recorded as the App Store (actor
    /// `appStore`) only by the ledger's notification route, from a notification it verified
    /// (decision 0056), which a simulated history does not have.
    mutating func rescindConsent(dayStart: Int64) {
        var candidates: [(Int, Int)] = []
        for p in people.indices where people[p].isMinor && !android {
            for a in people[p].apps.indices
            where people[p].apps[a].gates.values.contains(where: { $0.open && $0.byConsent && $0.at < dayStart }) {
                candidates.append((p, a))
            }
        }
        guard !candidates.isEmpty else { return }
        let (p, a) = random.pick(candidates)
        let template = AppTemplate.catalogue[people[p].apps[a].app]
        let t = moment(in: dayStart)
        let signatureValid = random.chance(0.97)
        let action = signatureValid
            ? random.weighted([("accessRevoked", 75), ("accountSuspended", 10), ("dataDeletionScheduled", 10), ("pending", 5)])
            : "noActionRequired"
        let signed = (t - random.seconds(1...20)) * 1000 + Int64(random.below(1000))
        let environment = random.chance(0.98) ? "Production" : "Sandbox"
        let server = EventDraft.AppStamp(bundleId: template.bundleId, platform: "server", environment: environment.lowercased())
        let rescinded = emit(draft("ConsentRescinded", person: p, app: server, actor: "app", payload: [
            "notificationUUID": .string(ids.uuid()), "signedDate": .number(Double(signed)),
            "appAppleId": .int(template.appleItemID), "bundleId": .string(template.bundleId),
            "environment": .string(environment),
            "appTransactionId": .string(people[p].apps[a].transactionId),
            "signatureCheck": .string(signatureValid ? "valid" : "invalid"), "enforcementAction": .string(action),
        ]), at: t, person: p)
        guard ["accessRevoked", "accountSuspended", "dataDeletionScheduled"].contains(action) else { return }
        var close = t + random.seconds(1...30)
        for feature in people[p].apps[a].gates.keys.sorted() {
            guard let gate = people[p].apps[a].gates[feature], gate.open, gate.byConsent else { continue }
            applyGate(person: p, app: a, feature: feature, open: false, basis: [rescinded], byConsent: false, at: close,
                      causation: rescinded)
            close += 1
        }
    }

    /// A support or compliance person annotates or overrides something about one member.
    mutating func recordOperatorDecision(dayStart: Int64, operators: [String]) {
        let candidates = people.indices.filter { people[$0].lastEvent.map { $0.at < dayStart } == true }
        guard !candidates.isEmpty else { return }
        let p = random.pick(candidates)
        guard let last = people[p].lastEvent else { return }
        let operatorId = random.pick(operators)
        let override = random.chance(0.25)
        let reason = override
            ? random.pick([
                "Parent confirmed the approval by phone after the PermissionKit answer failed to arrive; access kept open.",
                "Closed access: the approving account turned out not to belong to a guardian of this child.",
                "Restored access after a rescission sent by mistake; the parent confirmed in writing.",
            ])
            : random.pick([
                "Parent called support to confirm that the approval was theirs.",
                "Checked the App Store notification history for this account; nothing missing.",
                "Family asked why a feature was closed; explained the parental approval step.",
                "Guardian reported that the child shares the device with a sibling.",
                "Reviewed in the quarterly consent audit; no action needed.",
            ])
        var payload: [String: JSONValue] = [
            "operatorId": .string(operatorId), "decision": .string(override ? "override" : "annotation"),
            "reason": .string(reason), "affectedSubjectId": .string(people[p].subject),
        ]
        if random.chance(0.8) { payload["affectedEventIds"] = .strings([last.id]) }
        emit(draft("OperatorDecision", person: p, app: nil, actor: "operator", actorId: operatorId, payload: payload),
             at: moment(in: dayStart), person: p)
    }
}
