import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import Testing

/// Webhook subscriptions delivered to a real receiver (decision 0083, issue 42): in log order, at
/// least once, signed, retried, dead after the bound, replayed, one log's items only.
@Suite("Webhook deliveries")
struct WebhookDeliveryTests {
    /// What a subscription to AgeExceptionDecided events and every finding gets from
    /// ``AnomalyTests/firstBatch`` and ``AnomalyTests/laterBatch``, in order.
    static let expected = ["2.answer-after-expiry", "3.answer-before-question", "7", "8", "8.exception-decided-twice", "9",
                           "9.decision-without-request"]

    /// Retries at once, never giving up: a test's passes go one after another without waiting.
    static let atOnce = WebhookRetry(first: .zero, longest: .zero, giveUpAfter: .seconds(86_400))

    /// A database with both batches appended to acme and to globex (so every test also shows that
    /// another log's items never reach acme's subscription) and folded, a ledger on it, a receiver
    /// listening, and a subscription of acme to it (its secret given to the receiver).
    static func withSubscription<Result: Sendable>(
        eventTypes: [String] = ["AgeExceptionDecided"], kinds: [LedgerRule.Kind] = [.violation, .anomaly],
        _ body: (Ledger, WebhookReceiver, Subscription, WebhookSender) async throws -> Result
    ) async throws -> Result {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.append(db, AnomalyTests.laterBatch)
        try await FindingsFeedTests.append(db, log: "globex", AnomalyTests.firstBatch + AnomalyTests.laterBatch)
        try await FindingsFeedTests.fold(db)
        return try await withSubscription(on: db, eventTypes: eventTypes, kinds: kinds, body)
    }

    /// A ledger on `db`, a receiver listening, and a subscription of acme to it (its secret given
    /// to the receiver); the receiver and the HTTP client stopped afterwards, whatever happened.
    static func withSubscription<Result: Sendable>(
        on db: TestDatabase, eventTypes: [String], kinds: [LedgerRule.Kind],
        _ body: (Ledger, WebhookReceiver, Subscription, WebhookSender) async throws -> Result
    ) async throws -> Result {
        let receiver = WebhookReceiver()
        try await receiver.start()
        let http = WebhookSender.makeClient()
        do {
            let result = try await FindingsFeedTests.withLedger(db) { ledger in
                let (subscription, secret) = try await ledger.createSubscription(
                    SubscriptionRequest(log: "acme", url: receiver.url, eventTypes: eventTypes, findingKinds: kinds, label: "test"))
                receiver.expect(secret: secret)
                return try await body(ledger, receiver, subscription, WebhookSender(http: http, timeout: .seconds(5)))
            }
            await receiver.stop()
            try await http.shutdown()
            return result
        } catch {
            await receiver.stop()
            try? await http.shutdown()
            throw error
        }
    }

    @Test("every item goes once, in log order, signed; the delivery log has each attempt; the cursor ends at the last")
    func deliversInOrder() async throws {
        try await Self.withSubscription { ledger, receiver, subscription, sender in
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) == .delivered(7))
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) == .idle)
            #expect(receiver.accepted.map(\.id) == Self.expected)
            #expect(receiver.badSignatures == 0)
            for received in receiver.accepted {
                #expect(received.body.subscription == subscription.id && received.body.log == "acme")
                #expect((received.body.kind == "event") == (received.body.event != nil) && (received.body.kind == "finding") == (received.body.finding != nil))
            }
            #expect(receiver.accepted.compactMap(\.body.event?.type) == ["AgeExceptionDecided", "AgeExceptionDecided", "AgeExceptionDecided"])
            let log = try await ledger.deliveries(subscription.id)
            #expect(log.map(\.item) == Self.expected.reversed() && log.allSatisfy { $0.status == 200 && $0.attempt == 1 && $0.error == nil })
            let now = try await ledger.subscription(subscription.id)
            #expect(now.deliveredThrough == "9.decision-without-request" && now.failures == 0 && now.state == .active)
        }
    }

    @Test("a receiver that answers 500, is down, then answers too slowly gets everything in order once it is back; each failure is logged")
    func failuresThenRecovery() async throws {
        try await Self.withSubscription { ledger, receiver, subscription, sender in
            // Two go; then 500s: the third is not past the cursor, and is counted.
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce, limit: 2) == .delivered(2))
            receiver.answer(.fail(500))
            guard case .failed(delivered: 0, retryAt: .some) = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) else {
                Issue.record("a 500 was not a failure")
                return
            }
            // Down: no answer at all.
            await receiver.stop()
            guard case .failed(delivered: 0, retryAt: .some) = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) else {
                Issue.record("a refused connection was not a failure")
                return
            }
            // Back, but slower than the sender waits.
            try await receiver.start()
            receiver.answer(.slow(.seconds(3)))
            let impatient = WebhookSender(http: sender.http, timeout: .milliseconds(300))
            guard case .failed(delivered: 0, retryAt: .some) = try await ledger.deliverSubscription(subscription.id, sender: impatient, retry: Self.atOnce) else {
                Issue.record("a time-out was not a failure")
                return
            }
            let failing = try await ledger.subscription(subscription.id)
            #expect(failing.failures == 3 && failing.failingSince != nil && failing.deliveredThrough == "3.answer-before-question")
            receiver.answer(.accept)
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) == .delivered(5))
            // The slow answer may have come after the sender gave up: at least once, so the receiver
            // may hold the third item twice; never out of order, never another item twice.
            var seen: [String] = []
            for id in receiver.accepted.map(\.id) where seen.last != id { seen.append(id) }
            #expect(seen == Self.expected)
            let log = try await ledger.deliveries(subscription.id).reversed().map { ($0.item, $0.attempt, $0.status, $0.error != nil) }
            #expect(log.count == 10)
            #expect(log.prefix(5).map(\.0) == ["2.answer-after-expiry", "3.answer-before-question", "7", "7", "7"])
            #expect(log[2].1 == 1 && log[2].2 == 500 && log[3].1 == 2 && log[3].2 == nil && log[3].3 && log[4].1 == 3 && log[4].3)
            #expect(log[5].0 == "7" && log[5].1 == 4 && log[5].2 == 200)
            let recovered = try await ledger.subscription(subscription.id)
            #expect(recovered.failures == 0 && recovered.failingSince == nil && recovered.deliveredThrough == "9.decision-without-request")
        }
    }

    @Test("a failure waits as the retry policy says: the next pass before it is due sends nothing")
    func backoff() async throws {
        try await Self.withSubscription { ledger, receiver, subscription, sender in
            receiver.answer(.fail(503))
            guard case .failed(delivered: 0, retryAt: .some(let retryAt)) = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: .standard)
            else {
                Issue.record("a 503 was not a failure")
                return
            }
            // Standard policy: the first retry a second after the attempt.
            let attempted = try #require(try await ledger.deliveries(subscription.id).first)
            #expect(attempted.status == 503 && retryAt.timeIntervalSinceNow <= 1 && retryAt.timeIntervalSinceNow > -1)
            let requests = receiver.requests
            if retryAt.timeIntervalSinceNow > 0.2 {
                guard case .notDue = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: .standard) else {
                    Issue.record("a pass before the retry was due sent")
                    return
                }
                #expect(receiver.requests == requests)
            }
        }
    }

    @Test("an item failing beyond the bound makes the subscription dead; replay revives it from a position")
    func deadThenReplayed() async throws {
        try await Self.withSubscription { ledger, receiver, subscription, sender in
            let brief = WebhookRetry(first: .zero, longest: .zero, giveUpAfter: .milliseconds(1))
            receiver.answer(.fail(500))
            guard case .failed(delivered: 0, retryAt: .some) = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: brief) else {
                Issue.record("the first failure gave up at once")
                return
            }
            // The second failure comes more than a millisecond after the first (an HTTP round trip).
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: brief) == .failed(delivered: 0, retryAt: nil))
            #expect(try await ledger.subscription(subscription.id).state == .dead)
            receiver.answer(.accept)
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: brief) == .inactive)
            #expect(receiver.accepted.isEmpty)
            let revived = try await ledger.replaySubscription(subscription.id, from: 8)
            #expect(revived.state == .active && revived.deliveredThrough == "7" && revived.failures == 0)
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: brief) == .delivered(4))
            #expect(receiver.accepted.map(\.id) == ["8", "8.exception-decided-twice", "9", "9.decision-without-request"])
            // Deleted: never sent again, and cannot be replayed; its log stays.
            _ = try await ledger.deleteSubscription(subscription.id)
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: brief) == .inactive)
            await #expect(throws: LedgerError.self) { try await ledger.replaySubscription(subscription.id, from: 1) }
            #expect(try await ledger.deliveries(subscription.id).count == 6)
        }
    }

    @Test("a subscription is sent its own log's items only, and is found only under its own log")
    func tenantsApart() async throws {
        try await Self.withSubscription { ledger, receiver, subscription, sender in
            // globex holds the same history, folded: none of it may reach acme's subscription.
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: Self.atOnce) == .delivered(7))
            #expect(receiver.accepted.count == 7)
            #expect(receiver.accepted.allSatisfy { $0.body.log == "acme" && $0.body.finding.map { $0.log == "acme" } ?? true })
            let globexEvents = try await ledger.findings(log: "globex", after: .start, kind: nil).items.map(\.eventId)
            #expect(globexEvents.count == 4)
            #expect(receiver.accepted.allSatisfy { received in
                !globexEvents.contains(received.body.finding?.eventId ?? received.body.event?.eventId ?? "")
            })
            await #expect(throws: LedgerError.self) { try await ledger.subscription(subscription.id, log: "globex") }
            await #expect(throws: LedgerError.self) { try await ledger.deleteSubscription(subscription.id, log: "globex") }
            #expect(try await ledger.subscriptions(log: "globex").isEmpty)
        }
    }

    @Test("serve's deliverer sends each new item as the fold finds it, and two deliverers never send one subscription at once")
    func followsFolds() async throws {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(db)
        let receiver = WebhookReceiver()
        try await receiver.start()
        receiver.answer(.slow(.milliseconds(20)))  // Slow enough that two deliverers would overlap if both sent.
        let http = WebhookSender.makeClient()
        try await FindingsFeedTests.withLedger(db) { ledger in
            let (subscription, secret) = try await ledger.createSubscription(
                SubscriptionRequest(log: "acme", url: receiver.url, eventTypes: ["AgeExceptionDecided"], findingKinds: [.violation, .anomaly]))
            receiver.expect(secret: secret)
            _ = subscription
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await ledger.followFolds() }
                // Two deliverers, as two servers would run; a backstop of an hour, so only the fold's
                // notification can wake them for the later batch in time.
                for _ in 0..<2 {
                    group.addTask {
                        await ledger.deliverWebhooks(sender: WebhookSender(http: http), retry: Self.atOnce, backstop: .seconds(3600), note: { _ in })
                    }
                }
                group.addTask {
                    await receiver.waitForAccepted(3)  // 2.answer-after-expiry, 3.answer-before-question, 7
                    try await FindingsFeedTests.append(db, AnomalyTests.laterBatch)
                    try await FindingsFeedTests.fold(db)
                    await receiver.waitForAccepted(7)
                    throw CancellationError()
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(120))  // A bound, so that a missed wake fails instead of hanging.
                    Issue.record("the deliverers did not send everything within two minutes: \(receiver.accepted.map(\.id))")
                    throw CancellationError()
                }
                do { try await group.next() } catch is CancellationError {}
                group.cancelAll()
            }
        }
        await receiver.stop()
        try await http.shutdown()
        #expect(receiver.accepted.map(\.id) == Self.expected)
        #expect(receiver.mostInFlight == 1)
    }
}
