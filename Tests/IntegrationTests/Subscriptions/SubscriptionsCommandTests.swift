import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import Testing

/// `consent-ledger subscriptions` (issue 42): the built executable, as an administrator runs it, and
/// `subscriptions deliver` as the deliverer role, against a real receiver.
@Suite("consent-ledger subscriptions")
struct SubscriptionsCommandTests {
    @Test("create prints the id and secret once; deliver (as the deliverer) sends; list, deliveries, replay and delete say what happened")
    func lifecycle() async throws {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(db)
        let admin = try CLITests.url(db, user: "postgres")
        let receiver = WebhookReceiver()
        try await receiver.start()
        let created = try await CLIRunner.run(["subscriptions", "create", "--log", "acme", "--url", receiver.url, "--kind", "violation",
                                               "--kind", "anomaly", "--label", "cli test", "--database-url", admin])
        #expect(created.status == 0, "\(created.stderr)")
        let printed = created.stdout.split(separator: "\n").map(String.init)
        let id = try #require(printed.first), secret = try #require(printed.last)
        #expect(printed.count == 2 && Subscription.isID(id) && secret.hasPrefix("whsec_"), "\(created.stdout)")
        #expect(created.stderr.contains("shown once"), "\(created.stderr)")
        receiver.expect(secret: secret)
        // The deliverer, as its own role, until the receiver has both findings.
        let deliverer = try CLITests.url(db, user: "consent_ledger_deliverer")
        let (process, _, _) = try CLIRunner.start(["subscriptions", "deliver", "--database-url", deliverer])
        defer { if process.isRunning { process.terminate() } }
        // Until the receiver has both findings, or a bound, so that a deliverer that never sends fails
        // the test instead of hanging it.
        let inTime = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await receiver.waitForAccepted(2); return true }
            group.addTask { try? await Task.sleep(for: .seconds(120)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(inTime, "the deliverer did not send both findings within 120 s")
        // The receiver's 200 comes before the deliverer records it: wait (bounded) until the second is recorded.
        let recorded = try await db.as(.administrator) { admin in
            let store = SubscriptionStore(pool: admin)
            for _ in 0..<600 {
                if try await store.subscription(id).deliveredThrough == "3.answer-before-question" { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
        #expect(recorded, "the second delivery was not recorded within a minute")
        process.terminate()
        await receiver.stop()
        #expect(receiver.accepted.map(\.id) == ["2.answer-after-expiry", "3.answer-before-question"])
        let listed = try await CLIRunner.run(["subscriptions", "list", "--log", "acme", "--format", "json", "--database-url", admin])
        let subscription = try JSONDecoder().decode(Subscription.self, from: Data(listed.stdout.utf8))
        #expect(subscription.id == id && subscription.deliveredThrough == "3.answer-before-question" && subscription.state == .active)
        #expect(!listed.stdout.contains(secret), "list showed the secret")
        let log = try await CLIRunner.run(["subscriptions", "deliveries", id, "--database-url", admin])
        #expect(log.stdout.split(separator: "\n").count == 2 && log.stdout.contains("HTTP 200"), "\(log.stdout)")
        let replayed = try await CLIRunner.run(["subscriptions", "replay", id, "--from", "3", "--database-url", admin])
        #expect(replayed.status == 0 && replayed.stderr.contains("sends again from position 3"), "\(replayed.stderr)")
        let deleted = try await CLIRunner.run(["subscriptions", "delete", id, "--database-url", admin])
        #expect(deleted.status == 0 && deleted.stderr.contains("deleted subscription \(id)"), "\(deleted.stderr)")
        let unknown = try await CLIRunner.run(["subscriptions", "delete", "sub_000000000000", "--database-url", admin])
        #expect(unknown.status == 1 && unknown.stderr.contains("no subscription sub_000000000000"), "\(unknown.stderr)")
        let refused = try await CLIRunner.run(["subscriptions", "create", "--log", "acme", "--url", "ftp://x.example/", "--kind", "violation",
                                               "--database-url", admin])
        #expect(refused.status == 64 && refused.stderr.contains("not an http or https URL"), "\(refused.stderr)")
        let asDeliverer = try await CLIRunner.run(["subscriptions", "create", "--log", "acme", "--url", "https://x.example/", "--kind", "violation",
                                                   "--database-url", deliverer])
        #expect(asDeliverer.status == 1 && asDeliverer.stderr.contains("permission denied"), "\(asDeliverer.stderr)")
    }
}
