import LedgerCore
/// Age-range flows: the first check when a person opens an app (DeclaredAgeRange on Apple
/// devices, Play Age Signals on Android), re-checks, and the ranges the platforms report.
extension SimulatedFamily {
    /// The range `requestAgeRange(ageGates:)` returns for `age`: the gate at or below it, and the
    /// next gate minus one (nil: below the lowest gate, at or above the highest).
    static func range(age: Int, gates: [Int]) -> (lower: Int?, upper: Int?) {
        var lower: Int?
        for gate in gates {
            if age < gate { return (lower, gate - 1) }
            lower = gate
        }
        return (lower, nil)
    }

    /// The first check of an app: `EligibilityChecked`, `AgeRangeRequested`, then the answer
    /// (`AgeRangeShared`, now and then `AgeRangeDeclined` or `AgeRangeRequestFailed`) and the gate
    /// of the app's base feature. On Android: a `PlayAgeSignalReceived` and the gate.
    mutating func firstCheck(person p: Int, app a: Int, day: Int, at start: Int64, trigger: String, world: SimulationWorld) {
        let appIndex = people[p].apps[a].app
        if !people[p].apps[a].existing {
            // A new install gets the current version, which includes every change declared so far.
            people[p].apps[a].version = world.apps[appIndex].version
            people[p].apps[a].originalVersion = world.apps[appIndex].version
            people[p].apps[a].handledChanges = world.apps[appIndex].changesDeclared(before: start)
        }
        var t = start
        if android {
            let signal = readPlaySignal(person: p, app: a, at: t, status: nil)
            applyGate(person: p, app: a, feature: AppTemplate.catalogue[appIndex].baseFeature, open: true, basis: [signal],
                      byConsent: false, at: t + random.seconds(1...4), causation: signal)
            return
        }
        let features = jurisdiction.requiredFeatures(at: t)
        let unavailable = random.chance(0.02)
        var eligibility: [String: JSONValue] = [:]
        if unavailable {
            eligibility["error"] = .string("notAvailable")
        } else {
            eligibility["isEligibleForAgeFeatures"] = .bool(!features.isEmpty)
            if !features.isEmpty { eligibility["requiredRegulatoryFeatures"] = .strings(features) }
        }
        // Now and then, on purpose, the device's clock is set years ahead (occurred-in-future).
        let ahead = clockFault(0.004, seconds: (5 * 365 * 86_400)...(15 * 365 * 86_400))
        emit(draft("EligibilityChecked", person: p, app: stamp(person: p, app: a), payload: eligibility), at: t, person: p,
             occurredAt: ahead.map { t + $0 })
        t += random.seconds(1...3)
        if random.chance(0.004) {
            // A build with broken gates: DeclaredAgeRange refuses the request itself.
            emit(draft("AgeRangeRequestFailed", person: p, app: stamp(person: p, app: a), payload: [
                "error": "invalidRequest", "detail": "Age gates must be at least two years apart.",
            ]), at: t, person: p)
            people[p].apps[a].retryDay = day + random.int(1...5)
            return
        }
        let request = requestRange(person: p, app: a, at: t, trigger: trigger)
        t += people[p].isMinor ? random.seconds(2...25) : random.seconds(3...90)
        let outcome = unavailable ? "failed"
            : random.weighted([("shared", people[p].isMinor ? 95 : 86), ("declined", people[p].isMinor ? 3 : 12), ("failed", 2)])
        let base = AppTemplate.catalogue[appIndex].baseFeature
        switch outcome {
        case "shared":
            let shared = shareRange(person: p, app: a, at: t, request: request)
            applyGate(person: p, app: a, feature: base, open: true, basis: [shared], byConsent: false,
                      at: t + random.seconds(1...3), correlation: request, causation: shared)
        case "declined":
            let declined = emit(draft("AgeRangeDeclined", person: p, app: stamp(person: p, app: a), actor: "subject",
                                      actorId: people[p].subject, correlation: request, causation: request, payload: [:]),
                                at: t, person: p)
            applyGate(person: p, app: a, feature: base, open: false, basis: [declined], byConsent: false,
                      at: t + random.seconds(1...3), correlation: request, causation: declined)
            people[p].apps[a].retryDay = random.chance(0.6) ? day + random.int(2...10) : nil
        default:
            emit(draft("AgeRangeRequestFailed", person: p, app: stamp(person: p, app: a), correlation: request, causation: request,
                       payload: ["error": "notAvailable", "detail": "Age range sharing is not available right now."]),
                 at: t, person: p)
            people[p].apps[a].retryDay = day + random.int(1...3)
        }
        // An adult who installs after a change learns of it through the version they got.
        if let change = world.apps[appIndex].changes.last, !people[p].apps[a].existing, change.declaredAt < start,
           !people[p].isMinor, jurisdiction.requiresAdultNotification(at: t) {
            emit(draft("SignificantChangeAcknowledged", person: p, app: stamp(person: p, app: a), payload: [
                "changeId": .string(change.id), "handledBy": "originalAppVersion",
                "originalAppVersion": .string(people[p].apps[a].originalVersion),
            ]), at: t + random.seconds(5...20), person: p)
        }
    }

    /// Whether the person is a teen who first overstates their age (``shareRange``).
    static func overstates(_ person: SimulatedPerson) -> Bool { (13...15).contains(person.age) && person.subject.hasSuffix("e") }

    /// A later check (`anniversaryRecheck`, `other`): request and share again.
    mutating func recheck(person p: Int, app a: Int, at start: Int64, trigger: String) {
        if android {
            readPlaySignal(person: p, app: a, at: start, status: nil)
            return
        }
        let request = requestRange(person: p, app: a, at: start, trigger: trigger)
        let before = people[p].apps[a].known?.eventId
        let at = start + random.seconds(2...40)
        let shared = shareRange(person: p, app: a, at: at, request: request)
        if Self.overstates(people[p]), let before {
            // Deliberate violation (signal-disregarded): the guardian corrected the range, and the app
            // reopens its base feature on the range it had before.
            applyGate(person: p, app: a, feature: AppTemplate.catalogue[people[p].apps[a].app].baseFeature, open: true,
                      basis: [before], byConsent: false, at: at + 5, correlation: request, causation: shared)
        }
    }

    /// Reports `AgeRangeRequested` with the app's gates.
    @discardableResult
    mutating func requestRange(person p: Int, app a: Int, at t: Int64, trigger: String) -> String {
        let gates = AppTemplate.catalogue[people[p].apps[a].app].ageGates
        return emit(draft("AgeRangeRequested", person: p, app: stamp(person: p, app: a), payload: [
            "ageGates": .array(gates.map { .int($0) }), "trigger": .string(trigger),
        ]), at: t, person: p)
    }

    /// Reports `AgeRangeShared`: the range of the person's age under the app's gates, declared
    /// as people of that age declare it, with their parental controls; remembers it.
    @discardableResult
    mutating func shareRange(person p: Int, app a: Int, at t: Int64, request: String) -> String {
        let person = people[p]
        let gates = AppTemplate.catalogue[person.apps[a].app].ageGates
        var (lower, upper) = Self.range(age: person.age, gates: gates)
        var declaration: String
        switch person.age {
        case ..<13:
            let drawn = random.weighted([("guardianDeclared", 94), ("guardianCheckedByOtherMethod", 3), ("guardianPaymentChecked", 3)])
            // About one child in sixteen has an account set up as the child's own: their ranges read
            // self-declared, which the rules keep as implausible-declaration. Decided by the
            // pseudonym (after the draw above), so that no other event's random draws move.
            declaration = person.subject.hasSuffix("f") ? "selfDeclared" : drawn
        case 13...15: declaration = random.weighted([("guardianDeclared", 80), ("selfDeclared", 20)])
        case 16...17: declaration = random.weighted([("guardianDeclared", 50), ("selfDeclared", 50)])
        default: declaration = person.verification ?? "selfDeclared"
        }
        // About one teen of 13 to 15 in sixteen (by pseudonym, after the draws above, so that no other
        // random draw moves) first claims to be 16 or 17; the guardian corrects the range at the next
        // check (and the app then disregards the correction: `recheck`, signal-disregarded).
        if Self.overstates(person) {
            if person.apps[a].known == nil {
                (lower, upper) = Self.range(age: 16, gates: gates)
                declaration = "selfDeclared"
            } else {
                declaration = "guardianDeclared"
            }
        }
        var controls: [String] = []
        if person.isMinor {
            if person.communicationLimits { controls.append("communicationLimits") }
            if person.approvalControl { controls.append("significantAppChangeApprovalRequired") }
        }
        var payload: [String: JSONValue] = ["ageRangeDeclaration": .string(declaration), "activeParentalControls": .strings(controls)]
        if let lower { payload["lowerBound"] = .int(lower) }
        if let upper { payload["upperBound"] = .int(upper) }
        let shared = emit(draft("AgeRangeShared", person: p, app: stamp(person: p, app: a), actor: "subject", actorId: person.subject,
                                correlation: request, causation: request, payload: payload), at: t, person: p)
        people[p].apps[a].known = KnownRange(
            eventId: shared, at: t,
            adult: LegalCategory.of(lowerBound: lower, upperBound: upper,
                                    ageOfMajority: AgeOfMajority.of(jurisdiction: jurisdiction.code)) == .adult,
            approvalRequired: controls.contains("significantAppChangeApprovalRequired"))
        people[p].apps[a].retryDay = nil
        if person.isMinor && jurisdiction.consentForChanges {
            // Where an app store act applies, the app also verifies through the App Store that a
            // parent consented to the download (no random draw).
            emit(draft("StoreConsentStatusReceived", person: p, app: stamp(person: p, app: a), causation: shared,
                       payload: ["store": "appStore", "purpose": "download", "status": "obtained"]), at: t + 1, person: p)
        }
        return shared
    }

    /// Reports `PlayAgeSignalReceived` as Google Play answers for the person (`status` overrides
    /// the supervised status during a change's approval); remembers it. Where Play knows nothing
    /// (`UNKNOWN`), the app sometimes falls back to an age check of its own.
    @discardableResult
    mutating func readPlaySignal(person p: Int, app a: Int, at t: Int64, status: String?) -> String {
        let person = people[p]
        var payload: [String: JSONValue] = ["installId": .string(person.apps[a].installId)]
        var adult = false
        var supervised = false
        if !jurisdiction.playSignalsApply(at: t) {
            payload["userStatus"] = "UNKNOWN"
        } else if person.isMinor {
            supervised = true
            let band = person.age < 13 ? (0, 12) : person.age < 16 ? (13, 15) : (16, 17)
            payload["userStatus"] = .string(status ?? "SUPERVISED")
            payload["ageLower"] = .int(band.0)
            payload["ageUpper"] = .int(band.1)
            payload["ageRangeSource"] = .string(random.weighted([("TIER_B", 70), ("TIER_C", 30)]))
            if let approval = person.apps[a].lastPlayApproval {
                payload["mostRecentApprovalDate"] = .string(SimulationClock.date(approval))
            }
        } else {
            adult = true
            payload["userStatus"] = .string(person.verification == nil ? "DECLARED" : "VERIFIED")
            payload["ageLower"] = 18
            payload["ageRangeSource"] = .string(person.verification == nil ? "TIER_D" : "TIER_A")
        }
        let signal = emit(draft("PlayAgeSignalReceived", person: p, app: stamp(person: p, app: a), payload: payload), at: t, person: p)
        people[p].apps[a].known = KnownRange(eventId: signal, at: t, adult: adult, approvalRequired: supervised)
        if payload["userStatus"] == "UNKNOWN" { fallBackToOwnAgeCheck(person: p, app: a, signal: signal, at: t) }
        return signal
    }
}
