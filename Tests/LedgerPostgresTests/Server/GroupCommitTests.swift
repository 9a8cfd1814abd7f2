import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// Concurrent single-event appends share transactions, each still answered alone.
@Suite("HTTP API group commit")
struct GroupCommitTests {
    @Test("48 clients posting one event each: every one acknowledged once, in fewer transactions than events")
    func concurrentSingles() async throws {
        let fixture = try await ServerFixture.make()
        let ids = (0..<48).map { _ in UUID().uuidString.lowercased() }
        let statuses = try await fixture.test { client in
            try await withThrowingTaskGroup(of: (String, Int, Int64?).self) { group in
                for id in ids {
                    group.addTask {
                        let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                                body: ByteBuffer(string: Fixtures.line(id: id)))
                        return (id, response.status.code, response.json?["firstPosition"]?.intValue.map(Int64.init))
                    }
                }
                return try await group.reduce(into: [(String, Int, Int64?)]()) { $0.append($1) }
            }
        }
        #expect(statuses.allSatisfy { $0.1 == 201 }, "\(statuses.filter { $0.1 != 201 })")
        #expect(Set(statuses.compactMap(\.2)) == Set(1...48), "each got its own position")
        let (stored, transactions) = try await fixture.db.as(.auditor) { client in
            (try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'"),
             try await client.int("SELECT count(DISTINCT recorded_at) FROM ledger.events WHERE log_id = 'acme'"))
        }
        #expect(stored == 48)
        // Each append_events call stamps its events with one recordedAt: fewer stamps, fewer commits.
        #expect(transactions < 48, "\(transactions) transactions for 48 events")
    }

    @Test("in a shared batch, a bad event fails alone; a lost answer retried is a replay, not a conflict")
    func isolationAndRetry() async throws {
        let fixture = try await ServerFixture.make()
        let retried = UUID().uuidString.lowercased()
        try await fixture.test { client in
            let first = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                 body: ByteBuffer(string: Fixtures.line(id: retried)))
            #expect(first.status == .created)
            let results = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                // The retry of an event already stored, a stream conflict, and good events, all at once.
                group.addTask {
                    let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                            body: ByteBuffer(string: Fixtures.line(id: retried)))
                    return ("retry", response.status.code)
                }
                group.addTask {
                    let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                            body: ByteBuffer(string: Fixtures.line(stream: "subject-p_1", expected: "7")))
                    return ("conflict", response.status.code)
                }
                for index in 0..<10 {
                    group.addTask {
                        let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                                body: ByteBuffer(string: Fixtures.line(stream: "subject-q_\(index)")))
                        return ("good", response.status.code)
                    }
                }
                return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            #expect(results.filter { $0.0 == "good" }.allSatisfy { $0.1 == 201 }, "\(results)")
            #expect(results.first { $0.0 == "retry" }?.1 == 200, "\(results)")
            #expect(results.first { $0.0 == "conflict" }?.1 == 409, "\(results)")
        }
        let stored = try await fixture.db.as(.auditor) { client in try await client.int("SELECT count(*) FROM ledger.events") }
        #expect(stored == 11)
    }
}
