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
    /// The server's settings here: these tests are about how requests share transactions and keys,
    /// not about a database that does not answer. On a machine starved by the full suite, the
    /// default 2 s wait for a connection can end in `database-unavailable`, and the group commit
    /// answers a lost database with 503 to every waiter of the batch at once, trying nothing again
    /// (decision 0074; GroupCommitBatchTests): so the wait here is long.
    static var settings: ServerSettings {
        var settings = ServerSettings()
        settings.databaseWaitLimit = .seconds(60)
        settings.databaseBusyLimit = .seconds(120)
        return settings
    }

    @Test("48 clients posting one event each: every one acknowledged once, in fewer transactions than events")
    func concurrentSingles() async throws {
        let fixture = try await ServerFixture.make()
        let ids = (0..<48).map { _ in UUID().uuidString.lowercased() }
        // A 503 stores nothing and may be retried as it is (docs/http-api.md): on a machine loaded by
        // the rest of the suite an append can meet a busy database, so each client retries a 503 a
        // few times, as LedgerClient does; the retries are in the failure message.
        let statuses = try await fixture.test(settings: Self.settings) { client in
            try await withThrowingTaskGroup(of: (String, Int, Int64?, [String]).self) { group in
                for id in ids {
                    group.addTask {
                        var refused: [String] = []
                        while true {
                            let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                                    body: ByteBuffer(string: Fixtures.line(id: id)))
                            if response.status.code == 503, refused.count < 5 {
                                refused.append(response.json?["type"]?.stringValue ?? response.text)
                                continue
                            }
                            return (id, response.status.code, response.json?["firstPosition"]?.intValue.map(Int64.init), refused)
                        }
                    }
                }
                return try await group.reduce(into: [(String, Int, Int64?, [String])]()) { $0.append($1) }
            }
        }
        #expect(statuses.allSatisfy { $0.1 == 201 }, "\(statuses.filter { $0.1 != 201 }); retried: \(statuses.flatMap(\.3))")
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
        try await fixture.test(settings: Self.settings) { client in
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

    @Test("posts each with its own Idempotency-Key, at once: fewer transactions than events; a key sent twice is stored once, a key with other content is 409")
    func keyedConcurrent() async throws {
        let fixture = try await ServerFixture.make()
        // 40 keys, each with its own event; keys 0..<4 sent again with the same event, keys 4..<8
        // sent again with another event: all 48 at once.
        let firsts: [(key: String, id: String)] = (0..<40).map { ("key-\($0)", UUID().uuidString.lowercased()) }
        let requests = firsts + (0..<4).map { firsts[$0] } + (4..<8).map { (firsts[$0].key, UUID().uuidString.lowercased()) }
        let answers = try await fixture.test(settings: Self.settings) { client in
            try await withThrowingTaskGroup(of: (String, Int, Int64?).self) { group in
                for request in requests {
                    group.addTask {
                        let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post,
                                                                headers: fixture.headers("ingest", [.init("Idempotency-Key")!: request.key]),
                                                                body: ByteBuffer(string: Fixtures.line(id: request.id)))
                        return (request.key, response.status.code, response.json?["firstPosition"]?.intValue.map(Int64.init))
                    }
                }
                return try await group.reduce(into: [(String, Int, Int64?)]()) { $0.append($1) }
            }
        }
        let byKey = Dictionary(grouping: answers, by: \.0)
        for index in 8..<40 {
            #expect(byKey["key-\(index)"]?.map(\.1) == [201], "key-\(index): \(byKey["key-\(index)"] ?? [])")
        }
        for index in 0..<4 {
            let pair = byKey["key-\(index)"] ?? []
            #expect(pair.map(\.1).sorted() == [200, 201], "key-\(index) sent twice: \(pair)")
            #expect(Set(pair.map(\.2)).count == 1, "key-\(index): both answers name the same position: \(pair)")
        }
        for index in 4..<8 {
            let pair = byKey["key-\(index)"] ?? []
            #expect(pair.map(\.1).sorted() == [201, 409], "key-\(index) with other content: \(pair)")
        }
        let (stored, transactions) = try await fixture.db.as(.administrator) { client in
            (try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme'"),
             try await client.int("SELECT count(DISTINCT pg_xact_commit_timestamp(xmin)) FROM ledger.events WHERE log_id = 'acme'"))
        }
        #expect(stored == 40)
        // Each savepoint has a transaction id of its own (xmin), but all of a transaction's commit at
        // one timestamp (the test cluster runs with track_commit_timestamp): fewer commits than events.
        #expect(transactions < 40, "\(transactions) transactions for 40 events")
    }
}
