import LedgerCore
/// What all families share: the apps (their releases and the significant changes they declare)
/// and the support staff who write operator decisions.
struct SimulationWorld {
    /// The apps, in ``AppTemplate/catalogue`` order.
    var apps: [SimulatedApp]
    /// The operators' pseudonyms.
    let operators: [String]
    /// The ids of the world's own events (change declarations).
    private var ids: SimulationRandom

    /// The world of `seed`; `idSeed` names the sequence its event ids come from.
    init(seed: UInt64, idSeed: UInt64) {
        apps = AppTemplate.catalogue.enumerated().map { index, template in
            SimulatedApp(template: template, random: SimulationRandom(seed: seed, 0xA11, UInt64(index)))
        }
        var staff = SimulationRandom(seed: seed, 0x0FF1CE)
        operators = (0..<4).map { _ in staff.pseudonym(.operator) }
        ids = SimulationRandom(seed: idSeed, 0xA11)
    }

    /// Ships the releases of `day` (which starts at `dayStart`): each app releases every one to
    /// three weeks, and about half of the releases bring a significant change, which it declares
    /// (`SignificantChangeDeclared` on `change-<changeId>`) in the afternoon.
    mutating func release(day: Int, dayStart: Int64, into lines: inout [ScheduledLine], sequence: inout UInt64) {
        for index in apps.indices where apps[index].nextRelease == day {
            var app = apps[index]
            let significant = app.random.chance(0.5)
            if significant {
                app.minor += 1
                app.patch = 0
            } else if app.random.chance(0.3) {
                app.minor += 1
                app.patch = 0
            } else {
                app.patch += 1
            }
            app.nextRelease = day + app.random.int(7...21)
            if significant {
                let idea = app.template.ideas[app.shipped % app.template.ideas.count]
                app.shipped += 1
                let before = app.rating
                if idea.raisesRating { app.rating = before.raised }
                let time = dayStart + 15 * SimulationClock.hour + app.random.seconds(0...10_799)
                let change = SignificantChange(
                    id: app.template.name + "-" + app.version, app: index, version: app.version,
                    description: "Version \(app.major).\(app.minor) " + idea.text,
                    feature: idea.feature, declaredAt: time)
                app.changes.append(change)
                let draft = EventDraft(
                    type: "SignificantChangeDeclared", stream: "change-" + change.id, subject: nil, actorKind: "app",
                    app: .init(bundleId: app.template.bundleId, appVersion: app.version, platform: "server"),
                    payload: [
                        "changeId": .string(change.id), "introducedInVersion": .string(change.version),
                        "description": .string(change.description),
                        "ageRatingBefore": .string(before.label), "ageRatingAfter": .string(app.rating.label),
                    ])
                sequence += 1
                lines.append(ScheduledLine(time: time, sequence: sequence, line: draft.render(eventId: ids.uuid(), occurredAt: time)))
                // The developer notifies the App Store of the change ten minutes later, as the state
                // app store acts require (no random draw: every change is notified).
                let notice = EventDraft(
                    type: "SignificantChangeNotifiedToStore", stream: "change-" + change.id, subject: nil, actorKind: "app",
                    app: .init(bundleId: app.template.bundleId, appVersion: app.version, platform: "server"),
                    payload: ["changeId": .string(change.id), "store": "appStore"])
                sequence += 1
                lines.append(ScheduledLine(time: time + 600, sequence: sequence,
                                           line: notice.render(eventId: ids.uuid(), occurredAt: time + 600)))
                if app.random.chance(0.08) {
                    // Deliberate anomaly (change-redeclared): the release notes are edited and the
                    // change declared again an hour later with the new text; the first declaration stands.
                    var again = draft
                    again.payload["description"] = .string(change.description + " Now with a parental dashboard.")
                    sequence += 1
                    lines.append(ScheduledLine(time: time + SimulationClock.hour, sequence: sequence,
                                               line: again.render(eventId: ids.uuid(), occurredAt: time + SimulationClock.hour)))
                }
            }
            apps[index] = app
        }
    }
}
