import Foundation
import Hummingbird
import HummingbirdTesting
import LedgerAPIModel
import LedgerApplication
import LedgerClient
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// LedgerClient against a live server on loopback whose operations are scripted: when it retries,
/// and that a retried append carries the same idempotency key.
@Suite("LedgerClient retries (no database)")
struct ClientRetryTests {
    static let quick = RetryPolicy(attempts: 4, firstPause: .milliseconds(10), maxPause: .milliseconds(50))

    static func live<Value: Sendable>(_ ledger: ScriptedLedger, _ body: @Sendable (LedgerClient) async throws -> Value) async throws -> Value {
        let app = Application(router: LedgerAPI(operations: ledger).router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            // Hummingbird's live harness connects its own test client without waiting; a body that ends
            // before that connection is served lets the server stop with it still queued, which traps in
            // NIO (apple/swift-nio#3481, "Deinited NIOAsyncWriter without calling finish()"). One request
            // through it first makes sure it was served.
            _ = try await client.execute(uri: "/health", method: .get)
            return try await body(LedgerClient(baseURL: "http://127.0.0.1:\(client.port!)", apiKey: TestKeys.ingest, retry: Self.quick))
        }
    }

    static let appended = AppendResult(events: [.init(position: 5, eventId: "e", stream: "subject-p_1", streamVersion: 1)], idempotentReplay: false)

    @Test("503 then 201: the append is sent again with the same Idempotency-Key and its answer returned")
    func retriesWithTheSameKey() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: [
            .failure(LedgerError(.databaseUnavailable, "restarting")), .failure(LedgerError(.databaseUnavailable, "restarting")),
            .success(Self.appended),
        ]))
        let event = try EventInput(line: Array(RouteLayerTests.line().utf8))
        let answer = try await Self.live(ledger) { client in
            try await client.append(log: "acme", events: [event, event], idempotencyKey: "import-7")
        }
        #expect(answer.firstPosition == 5)
        #expect(ledger.idempotencyKeys == ["import-7", "import-7", "import-7"])
    }

    @Test("a conflict is not retried: one attempt, the server's problem thrown with its code")
    func conflictIsFinal() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: [.failure(LedgerError(.wrongExpectedVersion, "stream at 3")),
                                                                        .success(Self.appended)]))
        let event = try EventInput(line: Array(RouteLayerTests.line().utf8))
        await #expect {
            _ = try await Self.live(ledger) { client in try await client.append(log: "acme", events: [event]) }
        } throws: { error in
            guard case .problem(let problem) = error as? LedgerClientError else { return false }
            return problem.code == "wrong-expected-version" && problem.status == 409
        }
        #expect(ledger.idempotencyKeys.count == 1)
    }

    @Test("still unavailable after every attempt: the 503 problem is thrown, after exactly `attempts` tries")
    func givesUp() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: Array(repeating: .failure(LedgerError(.databaseUnavailable, "down")), count: 6)))
        let event = try EventInput(line: Array(RouteLayerTests.line().utf8))
        await #expect {
            _ = try await Self.live(ledger) { client in try await client.append(log: "acme", events: [event]) }
        } throws: { error in
            guard case .problem(let problem) = error as? LedgerClientError else { return false }
            return problem.code == "database-unavailable"
        }
        #expect(ledger.idempotencyKeys.count == Self.quick.attempts)
    }

    @Test("nothing listening: a transport error after every attempt")
    func nothingListening() async throws {
        let client = LedgerClient(baseURL: "http://127.0.0.1:1", apiKey: TestKeys.ingest, retry: Self.quick, timeout: .milliseconds(500))
        await #expect {
            _ = try await client.ready()
        } throws: { error in
            if case .transport = error as? LedgerClientError { return true }
            return false
        }
    }

    @Test("the pause follows Retry-After within the cap, and doubles with jitter without it")
    func pauses() {
        let policy = RetryPolicy(attempts: 5, firstPause: .milliseconds(100), maxPause: .seconds(1))
        #expect(policy.pause(attempt: 1, retryAfter: 2) == .seconds(1))
        #expect(policy.pause(attempt: 3, retryAfter: 0) == .zero)
        let third = policy.pause(attempt: 3, retryAfter: nil)
        #expect(third >= .milliseconds(400) && third < .milliseconds(500))
        #expect(policy.pause(attempt: 9, retryAfter: nil) >= .seconds(1))
        #expect(policy.retries(status: 503) && policy.retries(status: 429) && !policy.retries(status: 409) && !policy.retries(status: 500))
    }
}
