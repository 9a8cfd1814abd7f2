import LedgerCore
import Testing
import LedgerSimulation

/// The deliberate device-clock faults (``HistorySimulator/deviceClockFaults``): they give the
/// rules that judge event times their cases (docs/rules.md) and change nothing else.
@Suite struct HistorySimulatorClockFaultTests {
    /// 80 families over 120 days, seed 1, with and without the faults.
    static let faulty = SimulationFixtures.checked(SimulationFixtures.lines(families: 80, days: 120, seed: 1, deviceClockFaults: true))
    static let correct = SimulationFixtures.modest

    @Test func theFaultsAreOnByDefault() throws {
        #expect(try HistorySimulator(families: 1, days: 1, seed: 1).deviceClockFaults)
    }

    @Test("turning the faults off changes the faulted events' times and nothing else")
    func onlyTheFaultedEventsDiffer() {
        let correct = Dictionary(uniqueKeysWithValues: Self.correct.map { ($0.eventId, $0) })
        #expect(Self.faulty.count == correct.count)
        var changed = 0
        for event in Self.faulty {
            guard let twin = correct[event.eventId] else {
                Issue.record("\(event.type) \(event.eventId) is only in the history with faults")
                continue
            }
            guard event.text != twin.text else { continue }
            changed += 1
            // The same line once the device's times are put back.
            var restored = event.text.replacingOccurrences(of: "\"occurredAt\":\"\(event.occurredAt)\"",
                                                           with: "\"occurredAt\":\"\(twin.occurredAt)\"")
            for key in ["receivedAt", "decidedAt"] {
                if let mine = event.string(key), let theirs = twin.string(key) {
                    restored = restored.replacingOccurrences(of: "\"\(key)\":\"\(mine)\"", with: "\"\(key)\":\"\(theirs)\"")
                }
            }
            #expect(restored == twin.text, "\(event.type) \(event.eventId) differs in more than its times")
        }
        let moved = zip(Self.faulty.map(\.eventId), Self.correct.map(\.eventId)).filter { $0 != $1 }.count
        #expect(changed + moved > 0, "the faults should change something")
        #expect(changed * 500 < Self.faulty.count, "faults should be rare: \(changed) of \(Self.faulty.count)")
    }

    @Test("a guardian's clock behind: an answer that occurred before its question")
    func answersBeforeTheirQuestions() {
        var asked: [String: String] = [:]
        var early = 0
        for event in Self.faulty {
            if event.type == "PermissionQuestionSent" { asked[event.stream] = event.occurredAt }
            if event.type == "ParentalAnswerReceived", let question = asked[event.stream] {
                #expect(event.string("receivedAt") == event.occurredAt)
                if event.occurredAt < question { early += 1 }
            }
        }
        #expect(early > 0)
    }

    @Test("a device's clock behind: an acknowledgment that occurred before its change was declared")
    func acknowledgmentsBeforeTheirChanges() {
        var declared: [String: String] = [:]
        var early = 0
        for event in Self.faulty {
            if event.type == "SignificantChangeDeclared", let id = event.string("changeId") { declared[id] = event.occurredAt }
            if event.type == "SignificantChangeAcknowledged", let id = event.string("changeId"), let at = declared[id],
               event.occurredAt < at {
                early += 1
            }
        }
        #expect(early > 0)
    }

    @Test("an offline child's device: a request delivered after its decision")
    func decisionsBeforeTheirRequests() {
        var requested: Set<String> = []
        var undelivered = 0
        for event in Self.faulty {
            if event.type == "AgeExceptionRequested" { requested.insert(event.stream) }
            if event.type == "AgeExceptionDecided", !requested.contains(event.stream) { undelivered += 1 }
        }
        #expect(undelivered > 0)
        #expect(Self.faulty.filter { $0.type == "AgeExceptionRequested" }.count == requested.count, "each request is delivered once")
    }

    @Test("a device's clock years ahead")
    func eventsYearsAhead() throws {
        let end = try HistorySimulator(families: 80, days: 120, seed: 1).end
        let ahead = Self.faulty.filter { $0.occurredAt > end }
        #expect(!ahead.isEmpty)
        for event in ahead {
            #expect(event.type == "EligibilityChecked")
            #expect(event.occurredAt >= "2031-09-01T00:00:00Z", "\(event.occurredAt) is less than five years after the start")
        }
    }
}
