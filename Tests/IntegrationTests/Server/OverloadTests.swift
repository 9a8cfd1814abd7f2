import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
@testable import LedgerServer
import NIOCore
import PostgresNIO
import Testing

/// The bounded append queue: beyond it, 503 (server full) or 429 (this key's share) with
/// Retry-After, nothing stored; everything admitted is committed and acknowledged.
@Suite("HTTP API overload")
struct OverloadTests {
    /// Holds the log's head row locked (so appends queue up behind it) while `body` runs.
    static func withLogLocked<T: Sendable>(_ fixture: ServerFixture, _ body: @Sendable () async throws -> T) async throws -> T {
        try await fixture.db.as(.administrator) { client in
            try await client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: connection.logger)
                _ = try await connection.query("SELECT 1 FROM ledger.logs WHERE log_id = 'acme' FOR UPDATE", logger: connection.logger)
                do {
                    let value = try await body()
                    _ = try await connection.query("COMMIT", logger: connection.logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: connection.logger)
                    throw error
                }
            }
        }
    }

    /// Waits (at most 5 s) until an append to this test's database is blocked on the lock, so that
    /// the server holds at least one event.
    static func waitForBlockedAppend(_ fixture: ServerFixture) async throws {
        for _ in 0..<200 {
            let waiting = try await fixture.db.as(.auditor) { client in
                try await client.int("""
                    SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                     WHERE NOT l.granted AND a.datname = current_database()
                    """)
            }
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("no append was ever blocked on the log's lock")
    }

    /// Waits (at most 10 s) until the server holds exactly `count` events admitted and not yet
    /// committed. The probe is a batch of `settings.maxQueuedEvents` events to the other log, which
    /// the server refuses at once while it holds any event (after ``waitForBlockedAppend(_:)``),
    /// saying how many it holds; it is never admitted, so it takes no room from the test's appends.
    static func waitUntilQueued(_ count: Int, _ client: any TestClientProtocol, _ fixture: ServerFixture,
                                settings: ServerSettings) async throws {
        let probe = (0..<settings.maxQueuedEvents).map { _ in
            Fixtures.line(id: UUID().uuidString.lowercased(), stream: "subject-p_probe")
        }.joined(separator: "\n")
        for _ in 0..<400 {
            let response = try await client.execute(uri: "/v1/logs/other/events", method: .post,
                                                    headers: fixture.headers("otherIngest"), body: ByteBuffer(string: probe))
            guard response.status == .serviceUnavailable else {
                Issue.record("the probe was answered \(response.status.code), not refused: \(response.text)")
                return
            }
            if response.json?["detail"]?.stringValue?.contains("holds \(count) events") == true { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("the server never held \(count) events")
    }

    static func post(_ client: any TestClientProtocol, _ fixture: ServerFixture, role: String, id: String) async throws -> TestResponse {
        try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers(role),
                                 body: ByteBuffer(string: Fixtures.line(id: id, stream: "subject-p_\(id.prefix(4))")))
    }

    @Test("a full queue answers 503 with Retry-After and stores nothing; every admitted event is committed")
    func serverFull() async throws {
        let fixture = try await ServerFixture.make()
        let settings = ServerSettings(maxQueuedEvents: 4, maxQueuedEventsPerKey: 4)
        let admitted = (0..<4).map { _ in UUID().uuidString.lowercased() }
        let refused = UUID().uuidString.lowercased()
        try await fixture.test(settings: settings) { client in
            #expect(try await Self.post(client, fixture, role: "ingest", id: UUID().uuidString.lowercased()).status == .created)
            let (queued, overflow) = try await Self.withLogLocked(fixture) {
                let queued = admitted.map { id in Task { try await Self.post(client, fixture, role: "ingest", id: id).status.code } }
                try await Self.waitForBlockedAppend(fixture)
                try await Self.waitUntilQueued(admitted.count, client, fixture, settings: settings)
                // Still locked: the refusal comes at once, not after the queue drains.
                return (queued, try await Self.post(client, fixture, role: "ingest", id: refused))
            }
            #expect(overflow.status == .serviceUnavailable, "\(overflow.text)")
            #expect(overflow.headers[.retryAfter].flatMap { Int($0) }.map { (1...30).contains($0) } == true)
            #expect(overflow.json?["type"]?.stringValue?.hasSuffix("/overloaded") == true)
            var statuses: [Int] = []
            for task in queued { statuses.append(try await task.value) }
            #expect(statuses == [201, 201, 201, 201])
        }
        try await Self.expectStored(fixture, admitted: admitted, refused: [refused], total: 5)
    }

    @Test("one key over its share gets 429 while another key is still admitted")
    func keyShare() async throws {
        let fixture = try await ServerFixture.make()
        let settings = ServerSettings(maxQueuedEvents: 10, maxQueuedEventsPerKey: 2)
        let admitted = (0..<2).map { _ in UUID().uuidString.lowercased() }
        let other = UUID().uuidString.lowercased()
        let refused = UUID().uuidString.lowercased()
        try await fixture.test(settings: settings) { client in
            #expect(try await Self.post(client, fixture, role: "ingest", id: UUID().uuidString.lowercased()).status == .created)
            let (queued, overflow) = try await Self.withLogLocked(fixture) {
                var queued = admitted.map { id in Task { try await Self.post(client, fixture, role: "ingest", id: id).status.code } }
                try await Self.waitForBlockedAppend(fixture)
                try await Self.waitUntilQueued(admitted.count, client, fixture, settings: settings)
                let overflow = try await Self.post(client, fixture, role: "ingest", id: refused)
                queued.append(Task { try await Self.post(client, fixture, role: "admin", id: other).status.code })
                // The other key's event admitted while the log is still locked.
                try await Self.waitUntilQueued(admitted.count + 1, client, fixture, settings: settings)
                return (queued, overflow)
            }
            #expect(overflow.status == .tooManyRequests, "\(overflow.text)")
            #expect(overflow.headers[.retryAfter] != nil)
            var statuses: [Int] = []
            for task in queued { statuses.append(try await task.value) }
            #expect(statuses == [201, 201, 201])
        }
        try await Self.expectStored(fixture, admitted: admitted + [other], refused: [refused], total: 4)
    }

    @Test("Retry-After is the time the queue ahead takes at the recent commit rate, from 1 to 30 seconds")
    func retryAfter() {
        #expect(AppendAdmission.retryAfter(queued: 1_000, rate: 400) == 3)
        #expect(AppendAdmission.retryAfter(queued: 10, rate: 5_000) == 1)
        #expect(AppendAdmission.retryAfter(queued: 1_000_000, rate: 100) == 30)
        #expect(AppendAdmission.retryAfter(queued: 50, rate: 0) == 1, "no rate measured yet")
    }

    static func expectStored(_ fixture: ServerFixture, admitted: [String], refused: [String], total: Int64) async throws {
        let ids = try await fixture.db.as(.auditor) { client in
            let rows = try await client.query("SELECT event_id::text FROM ledger.events WHERE log_id = 'acme'")
            var ids: Set<String> = []
            for try await id in rows.decode(String.self) { ids.insert(id) }
            return ids
        }
        #expect(ids.count == Int(total))
        #expect(Set(admitted).isSubset(of: ids), "every acknowledged event is stored")
        #expect(Set(refused).isDisjoint(with: ids), "a refused event is not")
    }
}
