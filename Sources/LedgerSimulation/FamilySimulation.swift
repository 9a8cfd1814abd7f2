import LedgerCore
/// A family's day: what each member does with each app, and the helpers every flow uses to
/// report events. The flows themselves are in the `FamilySimulation+…` files.
extension SimulatedFamily {
    /// Lives `day` (which starts at `dayStart`): birthdays, each member's apps (first checks,
    /// re-checks, updates with significant changes, purchases), children's questions and
    /// age-rating exceptions, now and then a rescission or an operator's note. Every flow starts
    /// at a moment of this day; its later events wait in ``queue``.
    mutating func simulate(day: Int, dayStart: Int64, world: SimulationWorld) {
        for p in people.indices {
            if day > 0, people[p].birthdayDay == day % 365 { people[p].age += 1 }
            for a in people[p].apps.indices { live(person: p, app: a, day: day, dayStart: dayStart, world: world) }
            if people[p].isMinor, !android {
                if people[p].exceptionBusyUntil < dayStart, random.chance(0.045) {
                    requestAgeException(person: p, at: moment(in: dayStart))
                }
                if random.chance(0.02) { askToCommunicate(person: p, dayStart: dayStart) }
            }
        }
        if random.chance(0.012) { rescindConsent(dayStart: dayStart) }
        if random.chance(0.004) { recordOperatorDecision(dayStart: dayStart, operators: world.operators) }
    }

    /// One member's day with one app.
    private mutating func live(person p: Int, app a: Int, day: Int, dayStart: Int64, world: SimulationWorld) {
        // Fields are read one by one: copying the whole MemberApp every day would cost more than the day.
        guard day >= people[p].apps[a].startDay else { return }
        guard let known = people[p].apps[a].known else {
            if day == people[p].apps[a].startDay {
                let trigger = people[p].apps[a].existing ? random.weighted([("backfill", 55), ("launch", 45)])
                    : random.weighted([("download", 55), ("accountCreation", 45)])
                firstCheck(person: p, app: a, day: day, at: moment(in: dayStart), trigger: trigger, world: world)
            } else if day == people[p].apps[a].retryDay {
                firstCheck(person: p, app: a, day: day, at: moment(in: dayStart), trigger: "launch", world: world)
            }
            return
        }
        guard known.at < dayStart, people[p].apps[a].busyUntil < dayStart else { return }
        if day % 365 == people[p].apps[a].anniversaryDay, day != people[p].apps[a].startDay {
            recheck(person: p, app: a, at: moment(in: dayStart), trigger: "anniversaryRecheck")
            return
        }
        let appIndex = people[p].apps[a].app
        let handled = people[p].apps[a].handledChanges
        if handled < world.apps[appIndex].changesDeclared(before: dayStart), random.chance(0.4) {
            people[p].apps[a].handledChanges += 1
            update(person: p, app: a, to: world.apps[appIndex].changes[handled], at: moment(in: dayStart))
            return
        }
        if AppTemplate.catalogue[appIndex].shop, random.chance(0.006) {
            purchase(person: p, app: a, at: moment(in: dayStart))
        } else if random.chance(0.008) {
            recheck(person: p, app: a, at: moment(in: dayStart), trigger: "launch")
        } else if random.chance(0.002) {
            recheck(person: p, app: a, at: moment(in: dayStart), trigger: "other")
        }
    }

    // MARK: - Reporting

    /// A random moment of the UTC day that starts at `dayStart` at which it is between 07:00 and
    /// 22:00 where the family lives (the local evening of one UTC day and the morning of the next
    /// fall into the same UTC day, so a flow never starts before the day it is decided on).
    mutating func moment(in dayStart: Int64) -> Int64 {
        let local = 7 * SimulationClock.hour + random.seconds(0...(15 * 3600)) - Int64(jurisdiction.utcOffset) * SimulationClock.hour
        return dayStart + (local % SimulationClock.day + SimulationClock.day) % SimulationClock.day
    }

    /// The envelope's jurisdiction.
    var place: (code: String, basis: String) { (jurisdiction.code, jurisdictionBasis) }

    /// The envelope's app stamp for a member's app.
    func stamp(person p: Int, app a: Int) -> EventDraft.AppStamp {
        let member = people[p].apps[a]
        return .init(bundleId: AppTemplate.catalogue[member.app].bundleId, appVersion: member.version,
                     platform: people[p].platform, osVersion: people[p].osVersion)
    }

    /// A draft about person `p`, on their subject stream unless `stream` says otherwise.
    func draft(_ type: String, person p: Int, app: EventDraft.AppStamp?, actor: String = "app", actorId: String? = nil,
               stream: String? = nil, correlation: String? = nil, causation: String? = nil,
               payload: [String: JSONValue]) -> EventDraft {
        EventDraft(type: type, stream: stream ?? "subject-" + people[p].subject, subject: people[p].subject,
                   actorKind: actor, actorId: actorId, app: app, jurisdiction: place,
                   correlationId: correlation, causationId: causation, payload: payload)
    }

    /// Reports `draft` at `time` (queued until its day; dropped when at or after ``end``, as not
    /// yet happened) and returns its event id. `occurredAt` is the time the device writes when
    /// that is not `time` (a device-clock fault, ``clockFault(_:seconds:)``).
    @discardableResult
    mutating func emit(_ draft: EventDraft, at time: Int64, person p: Int? = nil, occurredAt: Int64? = nil) -> String {
        let eventId = ids.uuid()
        sequence += 1
        // Kept whether or not the event falls inside the history, so that the story (and its
        // random choices) is the same for every length of history.
        if let p, people[p].lastEvent.map({ $0.at <= time }) ?? true { people[p].lastEvent = (eventId, time) }
        if time < end {
            let line = draft.render(eventId: eventId, occurredAt: occurredAt ?? time)
            queue.push(ScheduledLine(time: time, sequence: sequence, line: line))
        }
        return eventId
    }

    /// A deliberate device-clock fault, with probability `chance`: how many seconds (drawn from
    /// `range`) the device is off by, or nil for a correct clock (always nil when faults are off).
    /// The draws come from ``clocks`` whether or not faults are on, so turning them off changes
    /// the faulted events' times and nothing else.
    mutating func clockFault(_ chance: Double, seconds range: ClosedRange<Int>) -> Int64? {
        guard clocks.chance(chance) else { return nil }
        let amount = clocks.seconds(range)
        return clockFaults ? amount : nil
    }

    /// Applies a gate: reports `AccessGateApplied` and remembers the state.
    @discardableResult
    mutating func applyGate(person p: Int, app a: Int, feature: String, open: Bool, basis: [String], byConsent: Bool,
                            at time: Int64, correlation: String? = nil, causation: String? = nil) -> String {
        let id = emit(draft("AccessGateApplied", person: p, app: stamp(person: p, app: a), correlation: correlation,
                            causation: causation, payload: [
                                "feature": .string(feature), "state": .string(open ? "open" : "closed"),
                                "basis": .strings(basis), "policyVersion": .string(policyVersion(at: time)),
                            ]), at: time, person: p)
        people[p].apps[a].gates[feature] = SimulatedGate(open: open, at: time, byConsent: byConsent)
        return id
    }

    /// The access policy in force: one version per quarter (`2026-Q3`).
    func policyVersion(at time: Int64) -> String {
        let (year, month, _) = SimulationClock.civil(time)
        return "\(year)-Q\((month - 1) / 3 + 1)"
    }
}
