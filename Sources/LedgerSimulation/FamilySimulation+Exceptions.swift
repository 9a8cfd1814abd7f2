import LedgerCore
/// Age-rating exceptions (MarketplaceKit): a child tries to install an app rated above the
/// device's limit, the request waits for a guardian, who approves by message or in person, or
/// declines; now and then an in-person approval fails, an exception is decided twice, or the
/// request reaches the ledger after its decision (the child's device was offline).
extension SimulatedFamily {
    /// The device limit a parent sets for a child of `age`, as a MarketplaceKit code.
    static func ratingLimit(age: Int) -> Int {
        switch age {
        case ..<9: return 100
        case 9...12: return 200
        case 13...15: return 313
        default: return 416
        }
    }

    /// A child's install attempt through the marketplace and, when it needs an age-rating
    /// exception, the exception's life on `exception-<exceptionId>`.
    mutating func requestAgeException(person p: Int, at start: Int64) {
        let stamp = EventDraft.AppStamp(bundleId: AppTemplate.marketplaceBundleId, appVersion: AppTemplate.marketplaceVersion,
                                        platform: people[p].platform, osVersion: people[p].osVersion)
        let limit = Self.ratingLimit(age: people[p].age)
        var t = start
        if !people[p].ratingLimitKnown || random.chance(0.3) {
            emit(draft("DeviceRatingLimitObserved", person: p, app: stamp, payload: ["maximumAllowedAgeRating": .int(limit)]),
                 at: t, person: p)
            people[p].ratingLimitKnown = true
            t += random.seconds(5...600)
        }
        let above = AppTemplate.marketplaceItems.filter { $0.rating > limit }
        let within = AppTemplate.marketplaceItems.filter { $0.rating <= limit }
        let item = !above.isEmpty && random.chance(0.75) ? random.pick(above) : random.pick(within)
        func install(_ outcome: String, asking: Bool, at time: Int64, stream: String? = nil, exceptionId: String? = nil) -> String {
            var payload: [String: JSONValue] = [
                "appleItemID": .int(item.appleItemID), "ageRating": .int(item.rating),
                "requestAgeException": .bool(asking), "outcome": .string(outcome),
            ]
            if let exceptionId { payload["exceptionId"] = .string(exceptionId) }
            return emit(draft("InstallAttempted", person: p, app: stamp, actor: "subject", actorId: people[p].subject, stream: stream,
                              correlation: exceptionId, payload: payload), at: time, person: p)
        }
        if item.rating <= limit {
            let asking = random.chance(0.15)
            _ = install(asking ? "ageRatingExceptionNotNeeded" : "installed", asking: asking, at: t)
            return
        }
        if random.chance(0.2) {
            _ = install("ratingRestricted", asking: false, at: t)
            return
        }
        let exceptionId = ids.exceptionId()
        let stream = "exception-" + exceptionId
        _ = install("cancelled", asking: true, at: t, stream: stream, exceptionId: exceptionId)
        t += random.seconds(1...3)
        let guardian = random.pick(guardians)
        let byMessage = t + random.seconds(300...172_800)
        let inPersonAt = t + random.seconds(60...1_800)
        let outcomes = [("message", 34), ("inPerson", 24), ("declined", 24), ("pending", 10), ("inPersonFailed", 4), ("twice", 2),
                        ("installedAnyway", 1)]
        let outcome = random.weighted(outcomes)
        // Now and then, on purpose, the child's device is offline: the request reaches the ledger
        // only after the guardian approved it by message (decision-without-request).
        let offline = clockFault(0.03, seconds: 60...3_600)
        let delivered = outcome == "message" ? offline.map { byMessage + $0 } : nil
        let requested = emit(draft("AgeExceptionRequested", person: p, app: stamp, stream: stream, correlation: exceptionId, payload: [
            "exceptionId": .string(exceptionId), "appleItemID": .int(item.appleItemID), "ageRating": .int(item.rating),
        ]), at: delivered ?? t, person: p, occurredAt: t)

        func decide(_ approved: Bool, inPerson: Bool, by guardian: String, at time: Int64) {
            var payload: [String: JSONValue] = [
                "exceptionId": .string(exceptionId), "decision": .string(approved ? "approved" : "declined"),
                "channel": .string(inPerson ? "inPerson" : "message"), "decidedAt": .string(SimulationClock.timestamp(time)),
            ]
            // Deliberate violation, now and then: approved in person with no authentication recorded
            // (in-person-approval-unauthenticated).
            if inPerson { payload["guardianAuthenticated"] = .bool(!(approved && random.chance(0.05))) }
            let known = inPerson ? random.chance(0.9) : random.chance(0.6)
            if known { payload["guardianId"] = .string(guardian) }
            emit(draft("AgeExceptionDecided", person: p, app: stamp, actor: "guardian", actorId: known ? guardian : nil, stream: stream,
                       correlation: exceptionId, causation: requested, payload: payload), at: time, person: p)
        }
        var last = t
        switch outcome {
        case "message":
            decide(true, inPerson: false, by: guardian, at: byMessage)
            last = max(byMessage + random.seconds(10...3_600), delivered ?? t)
            _ = install("installed", asking: false, at: last)
        case "inPerson":
            emit(draft("ApproveInPersonPresented", person: p, app: stamp, stream: stream, correlation: exceptionId, payload: [
                "appleItemID": .int(item.appleItemID), "exceptionId": .string(exceptionId),
            ]), at: inPersonAt - 30, person: p)
            decide(true, inPerson: true, by: guardian, at: inPersonAt)
            _ = install("installed", asking: false, at: inPersonAt + random.seconds(10...120))
            last = inPersonAt + 120
        case "declined":
            let inPerson = random.chance(0.3)
            last = inPerson ? inPersonAt : byMessage
            decide(false, inPerson: inPerson, by: guardian, at: last)
        case "inPersonFailed":
            // The parent approved by message first; the child's device then tried the in-person
            // sheet for a request that no longer existed.
            decide(true, inPerson: false, by: guardian, at: byMessage)
            last = byMessage + random.seconds(60...1_200)
            emit(draft("ApproveInPersonFailed", person: p, app: stamp, stream: stream, correlation: exceptionId, payload: [
                "error": "missingAgeRatingExceptionRequest", "exceptionId": .string(exceptionId), "appleItemID": .int(item.appleItemID),
            ]), at: last, person: p)
            last += random.seconds(10...300)
            _ = install("installed", asking: false, at: last)
        case "twice":
            // Deliberate anomaly: a second decision on an exception already decided.
            decide(true, inPerson: false, by: guardian, at: byMessage)
            last = byMessage + random.seconds(600...86_400)
            decide(false, inPerson: false, by: random.pick(guardians), at: last)
        case "installedAnyway":
            // Deliberate violation: exception-install-without-approval (the install goes ahead undecided).
            last = t + random.seconds(600...86_400)
            _ = install("installed", asking: true, at: last)
        default:
            last = t + 2 * SimulationClock.day  // Nobody decides: the request stays pending.
        }
        people[p].exceptionBusyUntil = last
    }
}
