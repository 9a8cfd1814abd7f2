import LedgerCore
/// Consent flows: updating past a significant change (a parent's approval for minors, an
/// acknowledgment for adults, Play's approval states on Android), PermissionKit questions and
/// their answers, expiries and gates, children asking to talk to someone, purchases.
extension SimulatedFamily {
    /// What a PermissionKit question asks about.
    enum QuestionTopic {
        /// `significantAppUpdate(description)` for a declared change.
        case change(SignificantChange)
        /// `communication(personInformation, actions)`: the handle the child wants to reach.
        case communication(handle: String, actions: [String])
        /// A topic of the app's own, by name.
        case custom(String)

        /// The text each custom topic shows the parent: fixed per name, so that sending it draws no
        /// random number and leaves every seed's other events as they were.
        static let customDescriptions: [String: String] = [
            "coinPurchase": "Your child would like to buy coins in the game.",
        ]

        /// The payload's `topic` object.
        var json: JSONValue {
            switch self {
            case .change(let change):
                return ["significantAppUpdate": ["description": .string(change.description)]]
            case .communication(let handle, let actions):
                return ["communication": [
                    "personInformation": [["handle": ["value": .string(handle), "kind": "custom"]]],
                    "actions": .strings(actions),
                ]]
            case .custom(let name):
                var custom: [String: JSONValue] = ["name": .string(name)]
                if let text = Self.customDescriptions[name] { custom["description"] = .string(text) }
                return ["custom": .object(custom)]
            }
        }
    }

    /// The person updates the app past `change`: a minor whose parent must approve changes gets
    /// a question (sometimes after a fresh age check); an adult where the law requires it
    /// acknowledges the change; on Android, Play reports the approval state.
    mutating func update(person p: Int, app a: Int, to change: SignificantChange, at start: Int64) {
        people[p].apps[a].version = change.version
        guard let known = people[p].apps[a].known else { return }
        if android {
            if known.approvalRequired { approveOnPlay(person: p, app: a, feature: change.feature, at: start) }
            return
        }
        if known.approvalRequired {
            if random.chance(0.015) {
                // Deliberate anomaly: the app opens the new feature to a minor with no approval on record.
                applyGate(person: p, app: a, feature: change.feature, open: true, basis: [], byConsent: false, at: start)
                return
            }
            var t = start
            var range = known.eventId
            if random.chance(0.5) {
                let request = requestRange(person: p, app: a, at: t, trigger: "significantChange")
                t += random.seconds(2...30)
                range = shareRange(person: p, app: a, at: t, request: request)
                t += random.seconds(1...5)
            }
            askParent(person: p, app: a, topic: .change(change), feature: change.feature, range: range, at: t)
        } else if known.adult, jurisdiction.requiresAdultNotification(at: start) {
            notifyAdult(person: p, app: a, of: change, known: known, at: start)
        }
    }

    /// An adult updates past `change` where the law requires adults to be told: the app shows the
    /// acknowledgment. Now and then, on purpose, the app breaks a rule of docs/rules.md: it opens
    /// the change's feature with no acknowledgment (to a verified adult) or to an adult whose age
    /// is not verified, or marks the change handled by an original version that predates it, or
    /// the device's clock puts the acknowledgment before the change.
    private mutating func notifyAdult(person p: Int, app a: Int, of change: SignificantChange, known: KnownRange, at start: Int64) {
        let stamp = stamp(person: p, app: a)
        switch random.weighted([("acknowledged", 965), ("openedWithout", 20), ("falseMarking", 15)]) {
        case "openedWithout":
            // Deliberate violation: adult-access-without-acknowledgment, or unverified-adult-access.
            applyGate(person: p, app: a, feature: change.feature, open: true, basis: [known.eventId], byConsent: false,
                      at: start + random.seconds(2...60))
        case "falseMarking":
            // Deliberate violation: acknowledgment-version-false (the person had an older version).
            emit(draft("SignificantChangeAcknowledged", person: p, app: stamp, payload: [
                "changeId": .string(change.id), "handledBy": "originalAppVersion",
                "originalAppVersion": .string(people[p].apps[a].originalVersion),
            ]), at: start + random.seconds(2...60), person: p)
        default:
            // Now and then, on purpose, the device's clock is behind: the acknowledgment's time
            // falls before the change was declared (acknowledgment-before-change).
            let at = start + random.seconds(2...60)
            let device = clockFault(0.01, seconds: 3_600...86_400).map { change.declaredAt - $0 }
            emit(draft("SignificantChangeAcknowledged", person: p, app: stamp, actor: "subject", actorId: people[p].subject, payload: [
                "changeId": .string(change.id), "handledBy": "showSignificantUpdateAcknowledgment",
            ]), at: at, person: p, occurredAt: device)
        }
    }

    /// Asks a parent (`PermissionQuestionSent` on `question-<id>`) and plays out the answer:
    /// approved (the feature opens, citing the range and the answer), denied (it stays closed),
    /// expired (`QuestionExpired`), now and then answered after expiry (an anomaly), or never
    /// answered. Rarely the question cannot be asked (`PermissionQuestionFailed`).
    mutating func askParent(person p: Int, app a: Int, topic: QuestionTopic, feature: String, range: String, at start: Int64) {
        let questionId = ids.uuid()
        let stream = "question-" + questionId
        let stamp = stamp(person: p, app: a)
        var isCommunication = false
        if case .communication = topic { isCommunication = true }
        if isCommunication && !people[p].communicationLimits || random.chance(0.03) {
            let error = isCommunication && !people[p].communicationLimits ? "communicationLimitsNotEnabled"
                : random.weighted([("systemError", 40), ("notAvailable", 30), ("unknown", 15),
                                   (isCommunication ? "contactSyncNotSetup" : "invalidQuestion", 15)])
            emit(draft("PermissionQuestionFailed", person: p, app: stamp, stream: stream, correlation: questionId,
                       payload: ["questionId": .string(questionId), "error": .string(error)]), at: start, person: p)
            return
        }
        let lifetime: Int64? = random.chance(0.12) ? nil : Int64(random.weighted([(3, 30), (5, 30), (7, 40)])) * SimulationClock.day
        let expiry = lifetime.map { start + $0 }
        let sentVia = random.weighted([("askCenter", 68), ("permissionButton", 12), ("askToApprove", 12), ("approveInPerson", 8)])
        var payload: [String: JSONValue] = [
            "questionId": .string(questionId), "topic": topic.json, "sentVia": .string(sentVia),
            "choices": [
                ["id": "allow", "title": "Allow", "answer": "approval"],
                ["id": "deny", "title": "Don\u{2019}t Allow", "answer": "denial"],
            ],
        ]
        if case .change(let change) = topic { payload["changeId"] = .string(change.id) }
        if random.chance(0.8) { payload["defaultChoice"] = "deny" }
        if let expiry { payload["expirationDate"] = .string(SimulationClock.timestamp(expiry)) }
        let sent = emit(draft("PermissionQuestionSent", person: p, app: stamp, stream: stream, correlation: questionId,
                              payload: payload), at: start, person: p)

        let outcome = random.weighted([("approve", 56), ("deny", 16), ("expire", expiry == nil ? 0 : 18),
                                       ("ignore", expiry == nil ? 18 : 0), ("late", expiry == nil ? 0 : 2)])
        var last = start
        switch outcome {
        case "approve", "deny":
            let inPerson = sentVia == "approveInPerson" || random.chance(0.06)
            var delay: Int64
            if inPerson {
                delay = random.seconds(60...900)
            } else {
                switch random.weighted([(0, 60), (1, 30), (2, 10)]) {
                case 0: delay = random.seconds(120...10_800)
                case 1: delay = random.seconds(10_800...86_400)
                default: delay = random.seconds(86_400...259_200)
                }
            }
            if let lifetime { delay = min(delay, lifetime - random.seconds(60...3_600)) }
            let approved = outcome == "approve"
            let answer = answerQuestion(person: p, app: a, questionId: questionId, sent: sent, sentAt: start, approved: approved,
                                        inPerson: inPerson, at: start + delay)
            last = start + delay + random.seconds(1...5)
            applyGate(person: p, app: a, feature: feature, open: approved, basis: approved ? [range, answer] : [answer],
                      byConsent: approved, at: last, correlation: questionId, causation: answer)
            if !approved, case .change = topic, random.chance(0.04) {
                // Deliberate violation: access-after-denial (the app opens the feature anyway, citing the age range).
                applyGate(person: p, app: a, feature: feature, open: true, basis: [range], byConsent: false,
                          at: last + random.seconds(3_600...86_400))
            }
        case "expire", "late":
            guard let expiry else { break }
            last = expiry + random.seconds(1...7_200)
            emit(draft("QuestionExpired", person: p, app: stamp, actor: "system", stream: stream, correlation: questionId,
                       causation: sent, payload: [
                           "questionId": .string(questionId), "expirationDate": .string(SimulationClock.timestamp(expiry)),
                       ]), at: last, person: p)
            if outcome == "late" {
                // Deliberate anomaly: the parent's answer arrives after the question expired.
                last += random.seconds(3_600...259_200)
                answerQuestion(person: p, app: a, questionId: questionId, sent: sent, sentAt: start, approved: true, inPerson: false,
                               at: last)
            }
        default:
            break  // Never answered: the question stays pending.
        }
        people[p].apps[a].busyUntil = max(last, expiry ?? last)
    }

    /// Reports `ParentalAnswerReceived` from one of the guardians, for the question `sent` at
    /// `sentAt`. Now and then, on purpose, the guardian's device clock is behind: the answer's
    /// times fall before the question's (answer-before-question).
    @discardableResult
    private mutating func answerQuestion(person p: Int, app a: Int, questionId: String, sent: String, sentAt: Int64,
                                         approved: Bool, inPerson: Bool, at t: Int64) -> String {
        let device = clockFault(0.004, seconds: 600...7_200).map { sentAt - $0 } ?? t
        let guardian = random.pick(guardians)
        // PermissionKit does not say who answered; the app knows only when the parent is signed in to it.
        let knownGuardian = inPerson || random.chance(0.5) ? guardian : nil
        var payload: [String: JSONValue] = [
            "questionId": .string(questionId), "answer": .string(approved ? "approval" : "denial"),
            "choiceId": .string(approved ? "allow" : "deny"), "choiceTitle": .string(approved ? "Allow" : "Don\u{2019}t Allow"),
            "receivedAt": .string(SimulationClock.timestamp(device)), "channel": .string(inPerson ? "inPerson" : "message"),
        ]
        if let knownGuardian { payload["guardianId"] = .string(knownGuardian) }
        return emit(draft("ParentalAnswerReceived", person: p, app: stamp(person: p, app: a), actor: "guardian", actorId: knownGuardian,
                          stream: "question-" + questionId, correlation: questionId, causation: sent, payload: payload),
                    at: t, person: p, occurredAt: device)
    }

    /// A supervised Android child updates past a change: Play reports the approval pending, then
    /// (at the next launch after the parent decided) approved or denied, and the app gates the
    /// feature on that signal. Some parents never decide.
    mutating func approveOnPlay(person p: Int, app a: Int, feature: String, at start: Int64) {
        readPlaySignal(person: p, app: a, at: start, status: "SUPERVISED_APPROVAL_PENDING")
        let outcome = random.weighted([("approved", 65), ("denied", 20), ("pending", 15)])
        guard outcome != "pending" else {
            people[p].apps[a].busyUntil = start + 3 * SimulationClock.day
            return
        }
        let decidedAt = start + random.seconds(600...172_800)
        if outcome == "approved" { people[p].apps[a].lastPlayApproval = decidedAt }
        let seen = decidedAt + random.seconds(600...43_200)
        let status = outcome == "approved" ? "SUPERVISED" : "SUPERVISED_APPROVAL_DENIED"
        let signal = readPlaySignal(person: p, app: a, at: seen, status: status)
        applyGate(person: p, app: a, feature: feature, open: outcome == "approved", basis: [signal],
                  byConsent: outcome == "approved", at: seen + random.seconds(1...4), causation: signal)
        people[p].apps[a].busyUntil = seen
    }

    /// A child asks to communicate with someone new in a chat-capable app (PermissionKit's
    /// communication topic, the handle being a user name).
    mutating func askToCommunicate(person p: Int, dayStart: Int64) {
        let candidates = people[p].apps.indices.filter { a in
            let member = people[p].apps[a]
            return AppTemplate.catalogue[member.app].communication && member.known.map { $0.at < dayStart } == true
                && member.busyUntil < dayStart
        }
        // Apps ask only when communication limits are on; now and then one tries anyway and fails.
        guard !candidates.isEmpty, people[p].communicationLimits || random.chance(0.15) else { return }
        let a = random.pick(candidates)
        let handle = random.pick(["player_", "kid", "gamer-", "crafter_"]) + random.hex(bytes: 3)
        let actions = random.weighted([(["message"], 35), (["message", "call"], 15), (["chat"], 15), (["friend", "message"], 15),
                                       (["follow", "beFollowed"], 10), (["videoCall"], 10)])
        askParent(person: p, app: a, topic: .communication(handle: handle, actions: actions),
                  feature: "contact-" + random.hex(bytes: 4), range: people[p].apps[a].known!.eventId, at: moment(in: dayStart))
    }

    /// A purchase: the app checks the age range again (`purchase` trigger); a supervised child in
    /// a game asks a parent first (a custom question topic).
    mutating func purchase(person p: Int, app a: Int, at start: Int64) {
        if android {
            readPlaySignal(person: p, app: a, at: start, status: nil)
            return
        }
        let request = requestRange(person: p, app: a, at: start, trigger: "purchase")
        let t = start + random.seconds(2...30)
        let shared = shareRange(person: p, app: a, at: t, request: request)
        if people[p].isMinor, people[p].apps[a].known?.approvalRequired == true, random.chance(0.6) {
            askParent(person: p, app: a, topic: .custom("coinPurchase"), feature: "coinPurchase", range: shared,
                      at: t + random.seconds(2...20))
        }
    }
}
