import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// The enforcement loop measured (issue 42, decision 0084): a withdrawal of consent a webhook
/// receiver took is a `WithdrawalDelivered` in the ledger, and the regulator report and the consent
/// register show, per withdrawal, when the ledger told the app and when the app closed the feature.
@Suite("Withdrawals delivered")
struct WithdrawalDeliveredTests {
    /// docs/disputes/01-withdrawn-then-reopened.ndjson: a question approved (#3), a feature opened
    /// (#4), consent rescinded (#5, 2026-03-10T08:00:00Z), the feature closed five minutes later (the
    /// sixth line), then opened again.
    static func dispute() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/disputes/01-withdrawn-then-reopened.ndjson")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The dispute up to its rescission appended and folded, a subscription to ConsentRescinded,
    /// its receiver, and a ledger on the database.
    static func withRescission<Result: Sendable>(
        _ body: (TestDatabase, Ledger, WebhookReceiver, Subscription, WebhookSender) async throws -> Result
    ) async throws -> Result {
        let db = try await TestDatabase.create()
        try await FindingsFeedTests.append(db, Array(try dispute().prefix(5)))
        try await FindingsFeedTests.fold(db)
        return try await WebhookDeliveryTests.withSubscription(on: db, eventTypes: ["ConsentRescinded"], kinds: []) { ledger, receiver, subscription, sender in
            try await body(db, ledger, receiver, subscription, sender)
        }
    }

    /// The subscription's deliveries, newest last: id, when the attempt began, its latency (read as the owner).
    static func deliveries(_ db: TestDatabase, _ subscription: String) async throws -> [(id: Int64, attemptedAt: Date, latencyMs: Double)] {
        try await db.as(.administrator) { client in
            var found: [(Int64, Date, Double)] = []
            for try await row in try await client.query("""
                SELECT delivery_id, attempted_at, latency_ms FROM ledger.deliveries WHERE subscription_id = \(subscription) ORDER BY delivery_id
                """).decode((Int64, Date, Double).self) {
                found.append(row)
            }
            return found
        }
    }

    /// The log's events of `type`, as their parsed records' `event` members, with their positions.
    static func events(_ db: TestDatabase, type: String) async throws -> [(position: Int64, event: JSONValue)] {
        try await db.as(.auditor) { client in
            var found: [(Int64, JSONValue)] = []
            for try await (position, record) in try await client.query(
                "SELECT position, convert_from(record, 'UTF8') FROM ledger.events WHERE log_id = 'acme' AND type = \(type) ORDER BY position")
                .decode((Int64, String).self) {
                found.append((position, try #require(try JSONParser.parse(Array(record.utf8))["event"])))
            }
            return found
        }
    }

    @Test("a rescission the receiver took is a WithdrawalDelivered; the regulator report and the register show when the app was told and when it closed the feature")
    func toldAndClosedInBothReports() async throws {
        try await Self.withRescission { db, ledger, receiver, subscription, sender in
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: WebhookDeliveryTests.atOnce) == .delivered(1))
            #expect(receiver.accepted.map(\.id) == ["5"] && receiver.badSignatures == 0)
            let delivery = try #require(try await Self.deliveries(db, subscription.id).first)
            let recorded = try await Self.events(db, type: "WithdrawalDelivered")
            try #require(recorded.count == 1)
            let (told, event) = recorded[0]
            #expect(told == 6)
            #expect(event["actor"] == ["kind": "ledger"] && event["subject"] == "p_mia" && event["stream"] == "subject-p_mia")
            #expect(event["causationId"] == "d0100000-0000-4000-8000-000000000005")
            #expect(event["app"]?["environment"] == "production" && event["jurisdiction"]?["code"] == "US-TX")
            let payload = try #require(event["payload"])
            #expect(payload["rescissionEventId"] == "d0100000-0000-4000-8000-000000000005" && payload["rescissionPosition"] == 5)
            #expect(payload["subscriptionId"] == .string(subscription.id) && payload["status"] == 200 && payload["attempt"] == 1)
            #expect(payload["deliveryId"] == .number(Double(delivery.id)))
            let deliveredAt = try #require(payload["deliveredAt"]?.stringValue)
            #expect(event["occurredAt"]?.stringValue == deliveredAt)
            // It was acknowledged after the attempt began, and within the attempt's latency.
            let acknowledged = try #require(AsOf.date(deliveredAt))
            #expect(acknowledged >= delivery.attemptedAt.addingTimeInterval(-0.001)
                    && acknowledged <= delivery.attemptedAt.addingTimeInterval(delivery.latencyMs / 1000 + 0.001))

            // The app closes the feature (the dispute's sixth line) after it was told.
            try await FindingsFeedTests.append(db, [try Self.dispute()[5]])
            try await FindingsFeedTests.fold(db)
            let toldSecond = String(deliveredAt.prefix(19)) + "Z"
            let secondsToTell = Int(acknowledged.timeIntervalSince(AsOf.date("2026-03-10T08:00:00Z")!).rounded())

            let regulator = try await db.as(.auditor) { client in
                try await RegulatorReport.compute(.init(log: "acme", jurisdiction: "US-TX", from: AsOf.date("2026-03-01T00:00:00Z")!,
                                                        to: AsOf.date("2026-04-01T00:00:00Z")!), pool: client).json
            }
            let document = try JSONDecoder().decode(RegulatorDocument.self, from: Data(regulator))
            let rescissions = document.consent.rescissions
            #expect(rescissions.count == 1 && rescissions.enforcedWithinWindow == 1 && rescissions.told == 1)
            #expect(rescissions.medianSecondsToEnforcement == 300)
            let withdrawal = try #require(rescissions.withdrawals.first)
            #expect(withdrawal.position == 5 && withdrawal.subject == "p_mia" && withdrawal.rescindedAt == "2026-03-10T08:00:00Z")
            let toldStep = try #require(withdrawal.told), closedStep = try #require(withdrawal.closed)
            #expect(toldStep.position == 6 && toldStep.eventId == event["eventId"]?.stringValue && toldStep.at == toldSecond
                    && toldStep.secondsAfterRescission == secondsToTell)
            #expect(closedStep.position == 7 && closedStep.eventId == "d0100000-0000-4000-8000-000000000006"
                    && closedStep.at == "2026-03-10T08:05:00Z" && closedStep.secondsAfterRescission == 300)
            #expect(rescissions.medianSecondsToTell == secondsToTell)

            let register = try await db.as(.auditor) { client in
                try await ConsentRegisterReport.compute(.init(log: "acme"), pool: client).document
            }
            let row = try #require(register.rows.first { $0.answer == "rescinded" })
            #expect(row.rescindedAt == "2026-03-10T08:00:00Z" && row.rescindedPosition == 5)
            #expect(row.toldAt == toldSecond && row.closedAt == "2026-03-10T08:05:00Z")
            #expect(row.evidencePositions == [2, 3, 5, 6, 7])
        }
    }

    @Test("a rescission not delivered shows as not told; a 500 records no WithdrawalDelivered")
    func notToldUntilTaken() async throws {
        try await Self.withRescission { db, ledger, receiver, subscription, sender in
            receiver.answer(.fail(500))
            guard case .failed = try await ledger.deliverSubscription(subscription.id, sender: sender, retry: WebhookDeliveryTests.atOnce) else {
                Issue.record("a 500 was not a failure")
                return
            }
            #expect(try await Self.events(db, type: "WithdrawalDelivered").isEmpty)
            try await FindingsFeedTests.fold(db)
            let register = try await db.as(.auditor) { client in
                try await ConsentRegisterReport.compute(.init(log: "acme"), pool: client).document
            }
            let row = try #require(register.rows.first { $0.answer == "rescinded" })
            #expect(row.toldAt == nil && row.closedAt == nil && row.evidencePositions == [2, 3, 5])
            // Taken on the retry: told once, for the attempt that succeeded.
            receiver.answer(.accept)
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: WebhookDeliveryTests.atOnce) == .delivered(1))
            let recorded = try await Self.events(db, type: "WithdrawalDelivered")
            #expect(recorded.count == 1 && recorded.first?.event["payload"]?["attempt"] == 2)
        }
    }

    @Test("only the deliverer's function stores a WithdrawalDelivered, and only as its 2xx delivery makes it")
    func cannotBeForged() async throws {
        try await Self.withRescission { db, ledger, receiver, subscription, sender in
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: WebhookDeliveryTests.atOnce) == .delivered(1))
            let delivery = try #require(try await Self.deliveries(db, subscription.id).first).id
            let (_, stored) = try #require(try await Self.events(db, type: "WithdrawalDelivered").first)
            // The ordinary append refuses the type, whatever actor it names (CL010, decision 0056).
            for actor in ["ledger", "app"] {
                guard case .object(var members) = stored else { return }
                members["eventId"] = .string(UUID().uuidString.lowercased())
                members["actor"] = ["kind": .string(actor)]
                let text = CanonicalJSON.encodeString(.object(members))
                try await db.as(.application) { client in
                    #expect(await client.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(text)])") == "CL010",
                            "ledger.append_events stored a WithdrawalDelivered as \(actor)")
                }
            }
            try await CheckedAppendTests.asUser(db, "consent_ledger_deliverer") { pool in
                // Its own delivery, but another time: refused.
                guard case .object(var members) = stored, case .object(var payload)? = members["payload"] else { return }
                members["eventId"] = .string(UUID().uuidString.lowercased())
                payload["deliveredAt"] = "2026-03-10T08:00:01.000Z"
                members["payload"] = .object(payload)
                let forged = CanonicalJSON.encodeString(.object(members))
                #expect(await pool.sqlState("SELECT * FROM ledger.record_withdrawal_delivered('acme', \(delivery), \(forged))") == "CL004")
                // A delivery that is not there: refused.
                #expect(await pool.sqlState("SELECT * FROM ledger.record_withdrawal_delivered('acme', \(delivery + 100), \(forged))") == "CL004")
                // The true event again, under a new id: the delivery has its event already (CL002).
                guard case .object(var again) = stored else { return }
                again["eventId"] = .string(UUID().uuidString.lowercased())
                let twice = CanonicalJSON.encodeString(.object(again))
                #expect(await pool.sqlState("SELECT * FROM ledger.record_withdrawal_delivered('acme', \(delivery), \(twice))") == "CL002")
                // And nothing else by the ordinary append.
                #expect(await pool.sqlState("SELECT * FROM ledger.append_events('acme', ARRAY[\(twice)])") == "42501")
            }
            #expect(try await Self.events(db, type: "WithdrawalDelivered").count == 1)
        }
    }
}
