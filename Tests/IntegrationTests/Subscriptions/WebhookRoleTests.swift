import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// Who may touch a subscription (decision 0083): the deliverer role sends and moves cursors and
/// nothing more; no other role but the owner reads a secret.
@Suite("Webhook roles")
struct WebhookRoleTests {
    @Test("consent_ledger_deliverer delivers; it cannot create, re-point or delete a subscription, rewrite the delivery log or read keys")
    func delivererMayDeliverOnly() async throws {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(db)
        let receiver = WebhookReceiver()
        try await receiver.start()
        let http = WebhookSender.makeClient()
        let subscription = try await FindingsFeedTests.withLedger(db) { ledger in
            let (subscription, secret) = try await ledger.createSubscription(
                SubscriptionRequest(log: "acme", url: receiver.url, findingKinds: [.violation, .anomaly]))
            receiver.expect(secret: secret)
            return subscription
        }
        let pass = try await CheckedAppendTests.asUser(db, "consent_ledger_deliverer") { pool in
            let ledger = Ledger(pools: RolePools(application: pool, auditor: pool, administrator: pool))
            return try await ledger.deliverSubscription(subscription.id, sender: WebhookSender(http: http), retry: .standard)
        }
        await receiver.stop()
        try await http.shutdown()
        #expect(pass == .delivered(2))
        #expect(receiver.accepted.map(\.id) == ["2.answer-after-expiry", "3.answer-before-question"])
        try await CheckedAppendTests.asUser(db, "consent_ledger_deliverer") { pool in
            for statement in [
                "INSERT INTO ledger.subscriptions (subscription_id, log_id, url, finding_kinds, secret) VALUES ('sub_aaaaaaaaaaaa', 'acme', 'http://x', '{violation}', 'whsec_\(String(repeating: "a", count: 40))')",
                "UPDATE ledger.subscriptions SET url = 'http://elsewhere.example/'",
                "UPDATE ledger.subscriptions SET secret = 'whsec_\(String(repeating: "b", count: 40))'",
                "DELETE FROM ledger.subscriptions",
                "UPDATE ledger.deliveries SET status = 200",
                "DELETE FROM ledger.deliveries",
                "SELECT count(*) FROM ledger.subject_keys",
                "SELECT count(*) FROM ledger.api_keys",
            ] {
                #expect(await pool.sqlState(PostgresQuery(unsafeSQL: statement)) == "42501", "the deliverer may: \(statement)")
            }
        }
        for user in ["consent_ledger_app", "consent_ledger_writer", "consent_ledger_auditor", "consent_ledger_projector"] {
            try await CheckedAppendTests.asUser(db, user) { pool in
                #expect(await pool.sqlState("SELECT secret FROM ledger.subscriptions") == "42501", "\(user) read a secret")
                #expect(await pool.sqlState("SELECT count(*) FROM ledger.deliveries") == "42501", "\(user) read the delivery log")
            }
        }
    }
}
