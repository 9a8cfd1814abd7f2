import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LedgerCore
import LedgerPostgres
import Testing

/// `serve`'s cache of verified API keys (decision 0039): a known key costs no lookup, and a revoked
/// key is refused within the stated bound, also after the listening connection was lost.
@Suite("consent-ledger serve, cached API keys")
struct KeyRevocationTests {
    /// The bound docs/http-api.md states for a revocation to reach `serve`.
    static let revocationBound: Duration = .seconds(5)

    static func status(port: Int, token: String) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/logs/acme/events?limit=1")!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? -1
    }

    /// Polls until `token` is answered 401, for at most ``revocationBound``; true if it was.
    static func refusedWithinBound(port: Int, token: String) async throws -> Bool {
        let deadline = ContinuousClock.now + revocationBound
        while ContinuousClock.now < deadline {
            if try await status(port: port, token: token) == 401 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits (at most 30 s) until a backend has run the key-change listener's LISTEN; true if one has.
    static func listening(_ db: TestDatabase) async throws -> Bool {
        for _ in 0..<300 {
            let listeners = try await db.as(.administrator) { client in
                try await client.int("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%consent_ledger_api_keys%'")
            }
            if listeners > 0 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Index and sequential scans of ledger.api_keys so far, every backend's included.
    ///
    /// An idle backend reports its table statistics a second or, under contention, ten seconds
    /// late, but always as it exits. So the server's connections other than its key-change listener
    /// are ended first, each waited for (at most 10 s) until it has exited; the server opens new
    /// ones as it needs them, and the listener, and with it the cache, is left alone.
    static func keyLookups(_ db: TestDatabase) async throws -> Int64 {
        try await db.as(.administrator) { client in
            let notExited = try await client.int("""
                SELECT count(*) FILTER (WHERE NOT pg_terminate_backend(pid, 10000)) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                   AND query NOT ILIKE 'LISTEN%consent_ledger_api_keys%'
                """)
            #expect(notExited == 0, "\(notExited) of the server's connections did not exit within 10 s")
            return try await client.int("SELECT coalesce(idx_scan, 0) + seq_scan FROM pg_stat_user_tables WHERE schemaname = 'ledger' AND relname = 'api_keys'")
        }
    }

    @Test("50 requests with one key look it up in the database at most once; a key revoked by another process is refused within 5 s")
    func cachedThenRevoked() async throws {
        let db = try await TestDatabase.create()
        let (key, token) = try await db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "acme", role: .auditor)
        }
        let url = try CLITests.url(db, user: "postgres")
        let server = try ServerProcess.start(["serve", "--port", "0", "--no-projections", "--database-url", url])
        defer { server.kill() }
        let port = try await server.port()
        // Keys are cached only while the server hears key changes: on a busy machine its LISTEN can
        // come seconds after the first request, and a lookup before it is rightly not cached.
        #expect(try await Self.listening(db), "serve never listened for key changes")
        #expect(try await Self.status(port: port, token: token) != 401)
        let before = try await Self.keyLookups(db)
        for _ in 0..<50 { #expect(try await Self.status(port: port, token: token) != 401) }
        let after = try await Self.keyLookups(db)
        #expect(after - before <= 1, "50 requests looked the key up \(after - before) times")

        let revoked = try await CLIRunner.run(["keys", "revoke", key.keyID, "--database-url", url])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try await Self.refusedWithinBound(port: port, token: token), "the revoked key still works after 5 s")
    }

    @Test("with the listening connection killed, a key revoked in SQL meanwhile is refused within 5 s, and keys still work")
    func listenerLost() async throws {
        let db = try await TestDatabase.create()
        let (first, firstToken) = try await db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "acme", role: .auditor)
        }
        let (_, secondToken) = try await db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "acme", role: .auditor)
        }
        let url = try CLITests.url(db, user: "postgres")
        let server = try ServerProcess.start(["serve", "--port", "0", "--no-projections", "--database-url", url])
        defer { server.kill() }
        let port = try await server.port()
        // Both keys verified once the listener is in place, and so cached (twice: a lookup that
        // began as the LISTEN was being answered is rightly not cached).
        #expect(try await Self.listening(db), "serve never listened for key changes")
        for _ in 0..<2 {
            #expect(try await Self.status(port: port, token: firstToken) != 401)
            #expect(try await Self.status(port: port, token: secondToken) != 401)
        }
        let killed = try await db.as(.administrator) { client in
            try await client.int("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%consent_ledger_api_keys%'
                """)
        }
        #expect(killed == 1, "the listening connection was not found")
        try await db.as(.administrator) { client in
            _ = try await client.query("UPDATE ledger.api_keys SET revoked_at = clock_timestamp() WHERE key_id = \(first.keyID)")
        }
        #expect(try await Self.refusedWithinBound(port: port, token: firstToken), "the key revoked while nobody listened still works")
        #expect(try await Self.status(port: port, token: secondToken) != 401)
    }
}
