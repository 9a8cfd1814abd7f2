import LedgerCore
import Testing
import LedgerSimulation

/// Every simulated line is an event the ledger accepts, in time order, with unique ids, on the
/// streams the conventions name, and with causes before their effects.
@Suite struct HistorySimulatorValidityTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyLineIsAcceptedByTheLedger(seed: UInt64) {
        let lines = SimulationFixtures.lines(families: 15, days: 60, seed: seed)
        #expect(lines.count > 300)
        let checked = SimulationFixtures.checked(lines)
        #expect(checked.count == lines.count)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func occurredAtNeverDecreasesAndStaysInsideTheHistory(seed: UInt64) throws {
        let simulator = try HistorySimulator(families: 15, days: 60, seed: seed, deviceClockFaults: false)
        let times = SimulationFixtures.checked(Array(simulator.lines())).map(\.occurredAt)
        #expect(!times.isEmpty)
        for time in times {
            // Whole seconds in UTC: then text order is time order.
            #expect(time.count == 20 && time.hasSuffix("Z"), "\(time)")
        }
        for (earlier, later) in zip(times, times.dropFirst()) where later < earlier {
            Issue.record("occurredAt goes back from \(earlier) to \(later)")
        }
        #expect(times.first! >= simulator.start)
        #expect(times.last! < simulator.end)
    }

    @Test func eventIdsAreUniqueVersion4UUIDs() {
        let events = SimulationFixtures.modest
        #expect(Set(events.map(\.eventId)).count == events.count)
        for id in events.map(\.eventId) {
            let characters = Array(id)
            let variant = characters.count == 36 ? characters[19] : " "
            #expect(characters.count == 36 && characters[14] == "4" && "89ab".contains(variant), "\(id)")
        }
    }

    @Test func causesComeBeforeTheirEffects() {
        let events = SimulationFixtures.modest
        var position: [String: Int] = [:]
        for (index, event) in events.enumerated() { position[event.eventId] = index }
        var checked = 0
        for (index, event) in events.enumerated() {
            var cited = event.strings("affectedEventIds")
            if let causation = event.input.envelope.causationId { cited.append(causation) }
            if event.type == "AccessGateApplied" { cited += event.strings("basis") }
            for id in cited {
                checked += 1
                guard let at = position[id] else {
                    Issue.record("\(event.type) \(event.eventId) cites \(id), which is not in the history")
                    continue
                }
                #expect(at < index, "\(event.type) \(event.eventId) cites \(id), which comes after it")
            }
        }
        #expect(checked > 1000)
    }

    @Test func streamsFollowTheConventions() {
        for event in SimulationFixtures.modest {
            let envelope = event.input.envelope
            switch event.type {
            case "SignificantChangeDeclared", "SignificantChangeNotifiedToStore":
                #expect(envelope.stream == "change-" + (event.string("changeId") ?? "?"))
                #expect(envelope.subject == nil)
            case "PermissionQuestionSent", "PermissionQuestionFailed", "ParentalAnswerReceived", "QuestionExpired":
                #expect(envelope.stream == "question-" + (event.string("questionId") ?? "?"))
                #expect(envelope.correlationId == event.string("questionId"))
            case "AgeExceptionRequested", "AgeExceptionDecided", "ApproveInPersonFailed", "ApproveInPersonPresented":
                #expect(envelope.stream == "exception-" + (event.string("exceptionId") ?? "?"))
            case "InstallAttempted" where event.string("exceptionId") != nil:
                #expect(envelope.stream == "exception-" + event.string("exceptionId")!)
            default:
                #expect(envelope.stream == "subject-" + (envelope.subject ?? "?"), "\(event.type) on \(envelope.stream)")
            }
            if let subject = envelope.subject { #expect(SimulationFixtures.isPseudonym(subject, prefix: "p_"), "\(subject)") }
            if envelope.type != "SignificantChangeDeclared" && envelope.type != "SignificantChangeNotifiedToStore" {
                #expect(envelope.jurisdiction != nil, "\(event.type) has no jurisdiction")
            }
            #expect(envelope.app != nil || event.type == "OperatorDecision", "\(event.type) has no app")
        }
    }

    @Test func peopleAppearOnlyAsPseudonyms() {
        var guardians = 0, operators = 0
        for event in SimulationFixtures.modest {
            let actor = event.input.envelope.actor
            if let id = actor.id {
                let prefix = actor.kind == "guardian" ? "g_" : actor.kind == "operator" ? "op_" : "p_"
                #expect(SimulationFixtures.isPseudonym(id, prefix: prefix), "\(actor.kind) \(id)")
                if actor.kind == "guardian" { guardians += 1 }
                if actor.kind == "operator" { operators += 1 }
            }
            if let guardian = event.string("guardianId") { #expect(SimulationFixtures.isPseudonym(guardian, prefix: "g_")) }
            if let op = event.string("operatorId") { #expect(SimulationFixtures.isPseudonym(op, prefix: "op_")) }
            if let subject = event.string("affectedSubjectId") { #expect(SimulationFixtures.isPseudonym(subject, prefix: "p_")) }
        }
        #expect(guardians > 0 && operators > 0)
    }

    @Test func answersAndDecisionsFollowTheirQuestionsAndRequests() {
        var sentAt: [String: (at: String, expires: String?)] = [:]
        var requested: Set<String> = []
        for event in SimulationFixtures.modest {
            switch event.type {
            case "PermissionQuestionSent":
                sentAt[event.stream] = (event.occurredAt, event.string("expirationDate"))
            case "ParentalAnswerReceived":
                #expect(sentAt[event.stream] != nil, "an answer without its question on \(event.stream)")
                #expect(event.string("receivedAt") == event.occurredAt)
            case "QuestionExpired":
                guard let sent = sentAt[event.stream], let expires = sent.expires else {
                    Issue.record("an expiry without a question that expires on \(event.stream)")
                    continue
                }
                #expect(event.string("expirationDate") == expires)
                #expect(event.occurredAt > expires)
            case "AgeExceptionRequested":
                requested.insert(event.stream)
            case "AgeExceptionDecided":
                #expect(requested.contains(event.stream), "a decision without its request on \(event.stream)")
                #expect(event.string("decidedAt") == event.occurredAt)
            default:
                break
            }
        }
    }

    @Test func aStartBeforeALeapDayWritesTheLeapDay() {
        let lines = SimulationFixtures.lines(families: 40, days: 2, seed: 4, start: "2028-02-28T00:00:00Z")
        let events = SimulationFixtures.checked(lines)
        #expect(events.count == lines.count)
        let days = Set(events.map { String($0.occurredAt.prefix(10)) })
        #expect(days == ["2028-02-28", "2028-02-29"])
    }

    @Test func wrongParametersAreRefused() {
        for (families, days, start) in [(0, 30, HistorySimulator.defaultStart), (10, 0, HistorySimulator.defaultStart),
                                        (10, HistorySimulator.maxDays + 1, HistorySimulator.defaultStart),
                                        (10, 30, "2026-09-01"), (10, 30, "2026-09-01T00:00:00+02:00"), (10, 30, "2026-02-30T00:00:00Z")] {
            #expect(throws: LedgerError.self, "\(families) \(days) \(start)") {
                try HistorySimulator(families: families, days: days, seed: 1, start: start)
            }
        }
        do {
            _ = try HistorySimulator(families: 1, days: 1, seed: 1, start: "2027-01-01T12:30:00Z")
        } catch {
            Issue.record("a valid start was refused: \(error)")
        }
    }
}
