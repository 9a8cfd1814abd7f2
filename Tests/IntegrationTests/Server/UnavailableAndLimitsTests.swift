import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
@testable import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// What a client hears when the database is gone, and when a body without a length outgrows a
/// route's limit.
@Suite("HTTP API: database unavailable, size limits")
struct UnavailableAndLimitsTests {
    @Test("with no database listening, /ready and every database route answer 503 with Retry-After (not a hang, not a 500)")
    func unreachableDatabaseIs503() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-db-\(UUID().uuidString)").path
        let nowhere = ConnectionSettings(socketPath: folder + "/.s.PGSQL.5432", host: nil, port: 5432, username: "consent_ledger_app",
                                         password: nil, database: "consent_ledger", requireTLS: false)
        try await LedgerDatabase.withRunningPool(nowhere) { pool in
            let api = LedgerAPI(ledger: Ledger(pools: RolePools(application: pool, auditor: pool, administrator: pool)))
            try await Application(router: api.router()).test(.router) { client in
                let health = try await client.execute(uri: "/health", method: .get)
                #expect(health.status == .ok, "the process answers without the database")
                for (uri, method) in [("/ready", HTTPRequest.Method.get), ("/v1/logs/acme/events", .post), ("/v1/logs/acme/events", .get),
                                      ("/v1/logs/acme/reports/consent-register", .get)] {
                    let response = try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer cl_abcdefghijkl_\(String(repeating: "a", count: 43))"],
                                                            body: ByteBuffer(string: Fixtures.line()))
                    #expect(response.status == .serviceUnavailable, "\(method) \(uri): \(response.status) \(response.text)")
                    #expect(response.headers[.retryAfter] != nil, "\(method) \(uri) names no Retry-After")
                    #expect(response.json?["type"]?.stringValue?.hasSuffix("/database-unavailable") == true, "\(response.text)")
                }
            }
        }
    }

    @Test("a body sent without Content-Length over a route's limit is 413 body-too-large, not 500",
          arguments: [("/v1/logs/acme/events", "ingest", 4 << 20), ("/v1/logs/acme/subjects/p_1/erase", "admin", 64 << 10)])
    func chunkedBodyOverLimit(uri: String, role: String, limit: Int) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            // The router test client sends no Content-Length: the route meets the limit while reading.
            let body = ByteBuffer(repeating: UInt8(ascii: " "), count: limit + 1)
            let response = try await client.execute(uri: uri, method: .post, headers: fixture.headers(role), body: body)
            #expect(response.status == .contentTooLarge, "\(response.status) \(response.text)")
            #expect(response.json?["type"]?.stringValue?.hasSuffix("/body-too-large") == true, "\(response.text)")
        }
    }
}
