import LedgerCore
/// An app's own age check where Google Play knows nothing of the person: its own age gate (a
/// self-declaration screen with the app's gates) or a third-party verifier. Every draw, the event
/// id included, comes from ``SimulatedFamily/ageChecks``, and the check changes nothing the rest of
/// the story reads (what the app knows, the person's latest event), so every other event of a seed
/// is what it was before these checks existed.
extension SimulatedFamily {
    /// The verifiers the simulated apps use, by method.
    static let verifiers: [String: String] = [
        "thirdPartyDocument": "example-id-check", "thirdPartyEstimation": "example-face-age", "thirdPartyPayment": "example-card-check",
    ]

    /// After Play answered `UNKNOWN` (`signal`, at `t`), now and then the app checks the age
    /// itself, 5 to 90 seconds later: an adult whose age was checked elsewhere goes to a
    /// third-party verifier, any other adult through the app's own gate, a minor through the gate
    /// or a facial estimation; a third party's check now and then fails or is inconclusive.
    mutating func fallBackToOwnAgeCheck(person p: Int, app a: Int, signal: String, at t: Int64) {
        guard ageChecks.chance(0.3) else { return }
        let time = t + ageChecks.seconds(5...90)
        let eventId = ageChecks.uuid()
        let person = people[p]
        let method: String
        if !person.isMinor {
            method = person.verification == nil ? "appAgeGate"
                : ageChecks.weighted([("thirdPartyDocument", 50), ("thirdPartyEstimation", 30), ("thirdPartyPayment", 20)])
        } else {
            method = ageChecks.weighted([("appAgeGate", 70), ("thirdPartyEstimation", 30)])
        }
        let outcome = method == "appAgeGate" ? "passed" : ageChecks.weighted([("passed", 85), ("failed", 8), ("inconclusive", 7)])
        var payload: [String: JSONValue] = ["method": .string(method), "outcome": .string(outcome)]
        if let provider = Self.verifiers[method] { payload["provider"] = .string(provider) }
        if outcome == "passed" {
            // The gate asks which of the app's age brackets the person is in; an estimation places
            // them in a legal band (18 or over for an adult).
            let range: (lower: Int?, upper: Int?)
            if method == "appAgeGate" {
                range = Self.range(age: person.age, gates: AppTemplate.catalogue[person.apps[a].app].ageGates)
            } else if person.isMinor {
                range = person.age < 13 ? (nil, 12) : person.age < 16 ? (13, 15) : (16, 17)
            } else {
                range = (18, nil)
            }
            if let lower = range.lower { payload["lowerBound"] = .int(lower) }
            if let upper = range.upper { payload["upperBound"] = .int(upper) }
        }
        let check = draft("AgeVerificationCompleted", person: p, app: stamp(person: p, app: a), causation: signal, payload: payload)
        report(check, at: time, eventId: eventId)
    }

    /// Reports `draft` at `time` under `eventId` without drawing from ``ids`` or becoming the
    /// person's latest event (which operator decisions cite), unlike ``emit(_:at:person:occurredAt:)``.
    mutating func report(_ draft: EventDraft, at time: Int64, eventId: String) {
        sequence += 1
        if time < end {
            queue.push(ScheduledLine(time: time, sequence: sequence, line: draft.render(eventId: eventId, occurredAt: time)))
        }
    }
}
