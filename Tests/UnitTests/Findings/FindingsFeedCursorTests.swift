import LedgerCore
import Testing

/// The findings feed's cursor and the signal its followers wait on (decision 0081), without a
/// database.
@Suite("The findings feed's cursor and fold signal")
struct FindingsFeedCursorTests {
    @Test("a cursor is <position>.<rule> or a position; anything else is refused", arguments: [
        ("0", "0"), ("12", "12"), ("12.access-after-denial", "12.access-after-denial"), ("007.a1", "7.a1"),
    ])
    func parses(_ text: String, _ written: String) throws {
        #expect(try #require(FindingsFeed.Cursor(text)).description == written)
    }

    @Test("malformed cursors are nil", arguments: ["", "x", "-1", "3.", "3.Rule", "3.a b", ".rule", "3.rule.x", "٣", "99999999999999999999"])
    func refuses(_ text: String) {
        #expect(FindingsFeed.Cursor(text) == nil, "\(text) was taken as a cursor")
    }

    @Test("an item's id is its cursor written, and reads back as that cursor")
    func itemID() throws {
        let item = FindingsFeed.Item(log: "acme", kind: .violation, rule: "access-after-denial", position: 12,
                                     eventId: "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", subject: "p_1", detail: "opened", evidence: [3, 12])
        #expect(item.id == "12.access-after-denial")
        #expect(FindingsFeed.Cursor(item.id) == item.cursor)
    }

    @Test("a waiter returns when its log's count moves, at once when it had moved already, and when cancelled", .timeLimit(.minutes(1)))
    func foldSignal() async {
        let signal = FoldSignal()
        let seen = signal.count(of: "acme")
        signal.fold(log: "acme")
        await signal.wait(log: "acme", after: seen)  // Moved before the wait: returns at once.
        let now = signal.count(of: "acme")
        #expect(now == seen + 1)
        async let woken: Void = signal.wait(log: "acme", after: now)
        // Moves it until the waiter has returned: a fold before the waiter is registered wakes it too.
        let mover = Task {
            while !Task.isCancelled {
                signal.fold(log: "acme")
                await Task.yield()
            }
        }
        await woken
        mover.cancel()
        // Nothing moves it now: only the cancellation can end this wait (the time limit fails the test
        // if it does not).
        let still = signal.count(of: "acme")
        let waiting = Task { await signal.wait(log: "acme", after: still) }
        waiting.cancel()
        await waiting.value
        #expect(signal.count(of: "acme") == still)
    }

    @Test("a fold of another log leaves a log's waiter waiting; a reconnection wakes every log's", .timeLimit(.minutes(1)))
    func foldSignalPerLog() async {
        let signal = FoldSignal()
        let seen = signal.count(of: "acme")
        signal.fold(log: "globex")
        #expect(signal.count(of: "acme") == seen, "a fold of globex moved acme's count")
        #expect(signal.count(of: "globex") == 1)
        // A waiter on acme: globex's folds leave it registered (a wake removes a waiter at once, under
        // the lock); only acme's own fold or a reconnection ends it.
        let waiter = Task { await signal.wait(log: "acme", after: seen) }
        while signal.waiters(on: "acme") == 0 { await Task.yield() }
        for _ in 0..<100 { signal.fold(log: "globex") }
        #expect(signal.waiters(on: "acme") == 1, "a fold of globex woke acme's waiter")
        #expect(signal.count(of: "acme") == seen)
        signal.foldEveryLog()
        #expect(signal.waiters(on: "acme") == 0)
        await waiter.value
        #expect(signal.count(of: "acme") == seen + 1 && signal.count(of: "globex") == 102)
    }
}
