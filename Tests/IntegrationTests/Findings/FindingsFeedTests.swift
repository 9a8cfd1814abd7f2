import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import Testing

/// The findings feed (decision 0081): a log's findings in log order after a cursor, read from the
/// anomalies projection itself, and followed as the projection folds (issue 42).
@Suite("The findings feed")
struct FindingsFeedTests {
    /// Appends `lines` to `log` as the application role.
    static func append(_ db: TestDatabase, log: String = "acme", _ lines: [String]) async throws {
        try await db.as(.application) { client in
            _ = try await EventStore(pool: client).append(log: log, events: try lines.map { try EventInput(line: Array($0.utf8)) })
        }
    }

    /// Folds every log as the administrator.
    static func fold(_ db: TestDatabase) async throws {
        try await db.as(.administrator) { client in try await ProjectionRunner(pool: client).runOnce() }
    }

    /// Runs `body` with a ledger on `db`'s three roles.
    static func withLedger<Result: Sendable>(_ db: TestDatabase, _ body: (Ledger) async throws -> Result) async throws -> Result {
        try await db.as(.application) { app in
            try await db.as(.auditor) { auditor in
                try await db.as(.administrator) { admin in
                    try await body(Ledger(pools: RolePools(application: app, auditor: auditor, administrator: admin)))
                }
            }
        }
    }

    @Test("every finding after a cursor, in log order then by rule; a cursor goes on without repeats; a kind filters")
    func readAfterCursor() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db, AnomalyTests.firstBatch)
        try await Self.append(db, AnomalyTests.laterBatch)
        try await Self.fold(db)
        try await Self.withLedger(db) { ledger in
            let all = try await ledger.findings(log: "acme", after: .start, kind: nil)
            #expect(all.items.map(\.id) == ["2.answer-after-expiry", "3.answer-before-question",
                                            "8.exception-decided-twice", "9.decision-without-request"])
            #expect(all.judgedThrough == 9 && all.head == 9)
            #expect(all.items.allSatisfy { $0.log == "acme" && $0.evidence.last == $0.position })
            #expect(all.items.map(\.kind) == ["anomaly", "violation", "anomaly", "anomaly"])
            // After an item's id: the items after it. After a bare position: after all of it.
            let afterSecond = try await ledger.findings(log: "acme", after: try #require(FindingsFeed.Cursor("3.answer-before-question")), kind: nil)
            #expect(afterSecond.items.map(\.id) == ["8.exception-decided-twice", "9.decision-without-request"])
            let afterTwo = try await ledger.findings(log: "acme", after: try #require(FindingsFeed.Cursor("2")), kind: nil)
            #expect(afterTwo.items.first?.id == "3.answer-before-question")
            // A page at a time, each after the last one's id, gives the whole list once.
            var cursor = FindingsFeed.Cursor.start
            var paged: [String] = []
            while true {
                let page = try await ledger.findings(log: "acme", after: cursor, kind: nil, limit: 1)
                guard let item = page.items.first else { break }
                paged.append(item.id)
                cursor = try #require(FindingsFeed.Cursor(item.id))
            }
            #expect(paged == all.items.map(\.id))
            let violations = try await ledger.findings(log: "acme", after: .start, kind: .violation)
            #expect(violations.items.map(\.id) == ["3.answer-before-question"])
        }
    }

    @Test("a log's feed never holds another log's findings, though both hold the same rules at the same positions")
    func tenantsApart() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db, AnomalyTests.firstBatch)
        try await Self.append(db, log: "other", AnomalyTests.firstBatch)
        try await Self.append(db, log: "other", AnomalyTests.laterBatch)
        try await Self.fold(db)
        try await Self.withLedger(db) { ledger in
            let acme = try await ledger.findings(log: "acme", after: .start, kind: nil)
            let other = try await ledger.findings(log: "other", after: .start, kind: nil)
            #expect(acme.items.count == 2 && other.items.count == 4)
            #expect(acme.items.allSatisfy { $0.log == "acme" } && other.items.allSatisfy { $0.log == "other" })
            let acmeEvents = Set(acme.items.map(\.eventId))
            #expect(acmeEvents.isDisjoint(with: other.items.map(\.eventId)), "an event id of the other log in acme's feed")
        }
    }

    @Test("an unknown log is refused naming the logs there are; an unbuilt projection says how to build it")
    func refusals() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db, AnomalyTests.firstBatch)
        try await Self.withLedger(db) { ledger in
            do {
                _ = try await ledger.findings(log: "acme", after: .start, kind: nil)
                Issue.record("findings were read before the projection was built")
            } catch let error as LedgerError {
                #expect(error.code == .projectionNotReady && "\(error)".contains("project run"), "\(error)")
            }
            try await Self.fold(db)
            do {
                _ = try await ledger.findings(log: "acme-typo", after: .start, kind: nil)
                Issue.record("a log that does not exist was read")
            } catch let error as LedgerError {
                #expect(error.code == .logNotFound && "\(error)".contains("Logs here: acme."), "\(error)")
            }
        }
    }

    @Test("a follower is woken by the fold's notification: each new finding is handed over once, in order")
    func followWakesOnFold() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db, AnomalyTests.firstBatch)
        try await Self.fold(db)
        struct NotWoken: Error {}
        let (handedOver, handed) = AsyncStream.makeStream(of: Void.self)
        let received = try await Self.withLedger(db) { ledger in
            try await withThrowingTaskGroup(of: [String]?.self) { group in
                group.addTask { await ledger.followFolds(); return nil }
                group.addTask {
                    // A backstop longer than the test's bound: only the notification can wake it in time.
                    var seen: [String] = []
                    do {
                        try await ledger.followFindings(log: "acme", after: .start, kind: nil, backstop: .seconds(3600)) { items in
                            seen += items.map(\.id)
                            if seen.count == 2 { handed.yield() }
                            if seen.count == 4 { throw CancellationError() }
                        }
                    } catch is CancellationError {}
                    return seen
                }
                group.addTask {
                    // The listener is in place (it moves the count once when it is) and the first
                    // two are handed over; then the next batch, and its fold.
                    await ledger.folds.wait(log: "acme", after: 0)
                    for await _ in handedOver { break }
                    try await Self.append(db, AnomalyTests.laterBatch)
                    try await Self.fold(db)
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(120))  // A bound, so that a missed wake fails instead of hanging.
                    throw NotWoken()
                }
                var result: [String] = []
                while let finished = try await group.next() {
                    if let seen = finished { result = seen; break }
                }
                group.cancelAll()
                return result
            }
        }
        #expect(received == ["2.answer-after-expiry", "3.answer-before-question", "8.exception-decided-twice", "9.decision-without-request"])
    }
}
