import LedgerCore
@testable import LedgerPostgres
import Synchronization
import Testing

/// What the group commit does with one batch, against a scripted store (the decisions are logic,
/// not storage: the database-backed behaviour is GroupCommitTests' and GroupCommitInFlightTests').
/// Request `n` is the event of stream `subject-p_n`; a call is written as its mode and its requests.
@Suite("Group commit decisions")
struct GroupCommitBatchTests {
    /// How the scripted store answers.
    struct Script: Sendable {
        /// Requests the database refuses, in any call that holds them.
        var bad: Set<Int> = []
        /// The database is lost from this call on (0: the first call), with this error.
        var lostFrom: Int?
        var lostError = LedgerError.Code.databaseUnavailable
        /// The grouped call is answered as a replay of a batch stored before.
        var groupedReplay = false
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Each request's idempotency key (nil: none).
        let keys: [String?]
        var script = Script()
        /// The calls the store should see, in order.
        let calls: [String]
        /// What each request should be answered: `stored`, or the error's code.
        let answers: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one request without a key: single", keys: [nil], calls: ["single 0"], answers: ["stored"]),
        Case(name: "one request with a key: a batch of one under its key", keys: ["k0"], calls: ["batch 0"], answers: ["stored"]),
        Case(name: "requests without keys: one grouped call", keys: [nil, nil, nil], calls: ["grouped 0 1 2"],
             answers: ["stored", "stored", "stored"]),
        Case(name: "a grouped call refused for one bad event: each alone, and only the bad one fails",
             keys: [nil, nil, nil], script: Script(bad: [1]),
             calls: ["grouped 0 1 2", "single 0", "single 1", "single 2"], answers: ["stored", "wrong-expected-version", "stored"]),
        Case(name: "a grouped call answered as a replay: each alone", keys: [nil, nil], script: Script(groupedReplay: true),
             calls: ["grouped 0 1", "single 0", "single 1"], answers: ["stored", "stored"]),
        Case(name: "the database lost at the grouped call: no event tried alone, every request fails with its error",
             keys: [nil, nil, nil], script: Script(lostFrom: 0),
             calls: ["grouped 0 1 2"], answers: ["database-unavailable", "database-unavailable", "database-unavailable"]),
        Case(name: "a commit whose outcome is unknown is a lost database too, not a refusal",
             keys: [nil, nil], script: Script(lostFrom: 0, lostError: .outcomeUnknown),
             calls: ["grouped 0 1"], answers: ["outcome-unknown", "outcome-unknown"]),
        Case(name: "the database lost while events go alone: the rest are not tried",
             keys: [nil, nil, nil, nil], script: Script(bad: [0], lostFrom: 2),
             calls: ["grouped 0 1 2 3", "single 0", "single 1"],
             answers: ["wrong-expected-version", "database-unavailable", "database-unavailable", "database-unavailable"]),
        Case(name: "requests with keys: one keyed call", keys: ["k0", "k1"], calls: ["keyed 0 1"], answers: ["stored", "stored"]),
        Case(name: "a keyed call refused: each in a savepoint of one transaction, the bad one fails alone",
             keys: ["k0", "k1", "k2"], script: Script(bad: [2]),
             calls: ["keyed 0 1 2", "keyed-each 0 1 2"], answers: ["stored", "stored", "wrong-expected-version"]),
        Case(name: "the database lost at the keyed call: no savepoints tried, and the unkeyed requests fail too, untried",
             keys: ["k0", nil, "k2", nil], script: Script(lostFrom: 0),
             calls: ["keyed 0 2"], answers: Array(repeating: "database-unavailable", count: 4)),
        Case(name: "keyed and unkeyed together: the keyed call first, then the grouped one",
             keys: [nil, "k1", nil, "k3"], calls: ["keyed 1 3", "grouped 0 2"], answers: Array(repeating: "stored", count: 4)),
        Case(name: "the database lost after the keyed call: the unkeyed requests fail at their grouped call",
             keys: ["k0", nil, nil], script: Script(lostFrom: 1),
             calls: ["batch 0", "grouped 1 2"], answers: ["stored", "database-unavailable", "database-unavailable"]),
    ]

    @Test("each request goes in the mode the table says and gets its own answer", arguments: cases)
    func decisions(_ test: Case) async throws {
        let requests = try test.keys.indices.map { AppendRequest(event: try QueuedEvents.event(stream: "subject-p_\($0)"), idempotencyKey: test.keys[$0]) }
        let store = ScriptedStore(script: test.script)
        let answers = Mutex<[Int: [Result<AppendResult, any Error>]]>([:])
        await GroupCommitBatch.commit(requests, log: "acme", store: store.call) { index, answer in
            answers.withLock { $0[index, default: []].append(answer) }
        }
        #expect(store.calls == test.calls)
        let given = answers.withLock { $0 }
        for (index, request) in requests.enumerated() {
            let received = given[index] ?? []
            try #require(received.count == 1, "request \(index) answered \(received.count) times")
            switch received[0] {
            case .success(let result):
                #expect(result.events.map(\.eventId) == [request.event.envelope.eventId], "request \(index) got another's event")
                #expect(test.answers[index] == "stored", "request \(index)")
            case .failure(let error):
                #expect((error as? LedgerError)?.code.rawValue == test.answers[index], "request \(index): \(error)")
            }
        }
    }

    @Test("a lost database is told apart from a refused batch")
    func lostOrRefused() {
        #expect(GroupCommitBatch.isDatabaseLost(LedgerError(.databaseUnavailable, "connection refused")))
        #expect(GroupCommitBatch.isDatabaseLost(LedgerError(.outcomeUnknown, "connection closed during commit")))
        #expect(GroupCommitBatch.isDatabaseLost(LedgerError(.databaseBusy, "every connection in use")))
        #expect(!GroupCommitBatch.isDatabaseLost(LedgerError(.wrongExpectedVersion, "stream moved on")))
        #expect(!GroupCommitBatch.isDatabaseLost(LedgerError(.duplicateEventId, "stored before")))
        #expect(!GroupCommitBatch.isDatabaseLost(LedgerError(.invalidField, "bad event")))
    }
}

/// A store that answers as its script says and records the calls it was given.
final class ScriptedStore: Sendable {
    private let script: GroupCommitBatchTests.Script
    private let made = Mutex<[String]>([])

    init(script: GroupCommitBatchTests.Script) { self.script = script }

    /// The calls so far: mode and request numbers.
    var calls: [String] { made.withLock { $0 } }

    @Sendable func call(_ mode: AppendMode, log: String, requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
        let numbers = requests.map { Int($0.event.envelope.stream.dropFirst("subject-p_".count))! }
        let index = made.withLock { calls in
            calls.append(([mode.rawValue] + numbers.map(String.init)).joined(separator: " "))
            return calls.count - 1
        }
        if let lostFrom = script.lostFrom, index >= lostFrom { throw LedgerError(script.lostError, "the database went away") }
        let stored = { (request: AppendRequest, number: Int, replay: Bool) -> AppendResult in
            AppendResult(events: [.init(position: Int64(number + 1), eventId: request.event.envelope.eventId,
                                        stream: request.event.envelope.stream, streamVersion: 1)], idempotentReplay: replay)
        }
        let refusal = { (number: Int) in LedgerError(.wrongExpectedVersion, "request \(number) is refused") }
        switch mode {
        case .keyedEach:
            return zip(requests, numbers).map { request, number in
                script.bad.contains(number) ? .failure(refusal(number)) : .success(stored(request, number, false))
            }
        default:
            if let bad = numbers.first(where: script.bad.contains) { throw refusal(bad) }
            return zip(requests, numbers).map { .success(stored($0, $1, mode == .grouped && script.groupedReplay)) }
        }
    }
}
