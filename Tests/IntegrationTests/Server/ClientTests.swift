import Foundation
import HummingbirdTesting
import LedgerAPIModel
import LedgerClient
import LedgerCore
import LedgerPostgres
import Testing

/// LedgerClient end to end: a live server on loopback over the real database.
@Suite("LedgerClient against a live server")
struct ClientTests {
    @Test("append, the same batch again with its key (a replay, nothing stored twice), then read it back")
    func appendReplayAndRead() async throws {
        let fixture = try await ServerFixture.make()
        let events = try (0..<3).map { _ in
            try EventInput(line: Array(Fixtures.line().replacingOccurrences(of: #""stream":"subject-p_1""#,
                                                                            with: #""stream":"subject-p_1","subject":"p_1""#).utf8))
        }
        let (first, again, state, records) = try await fixture.test(live: true) { http in
            let base = "http://127.0.0.1:\(http.port!)"
            let ingest = LedgerClient(baseURL: base, apiKey: fixture.tokens["ingest"]!)
            let auditor = LedgerClient(baseURL: base, apiKey: fixture.tokens["auditor"]!)
            let first = try await ingest.append(log: "acme", events: events, idempotencyKey: "client-batch-1")
            let again = try await ingest.append(log: "acme", events: events, idempotencyKey: "client-batch-1")
            return (first, again, try await auditor.state(log: "acme", subject: "p_1"), try await auditor.events(log: "acme"))
        }
        #expect(!first.idempotentReplay && first.events.map(\.position) == [1, 2, 3])
        #expect(again.idempotentReplay && again.events == first.events)
        let stored = try await fixture.db.as(.auditor) { try await $0.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'") }
        #expect(stored == 3)
        #expect(state.position == 3 && state.subject == "p_1")
        #expect(records.split(separator: 0x0A).count == 3)
    }

    @Test("a refused batch comes back as the server's problem, with the line at fault, and stores nothing")
    func refusal() async throws {
        let fixture = try await ServerFixture.make()
        let good = try EventInput(line: Array(Fixtures.line().utf8))
        let conflicting = try EventInput(line: Array(Fixtures.line(stream: "subject-p_9", expected: "4").utf8))
        let thrown = try await fixture.test(live: true) { http in
            let client = LedgerClient(baseURL: "http://127.0.0.1:\(http.port!)", apiKey: fixture.tokens["ingest"]!)
            do {
                _ = try await client.append(log: "acme", events: [good, conflicting])
                return nil as LedgerClientError?
            } catch let error as LedgerClientError {
                return error
            }
        }
        guard case .problem(let problem) = thrown else {
            Issue.record("expected the server's problem, got \(String(describing: thrown))")
            return
        }
        #expect(problem.code == "wrong-expected-version" && problem.status == 409 && problem.line == 2)
        let stored = try await fixture.db.as(.auditor) { try await $0.int("SELECT count(*) FROM ledger.events") }
        #expect(stored == 0)
    }
}
