import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// Who the record of reads names as the client, and the headers every answer carries (issue 36,
/// finding 7 and the low findings): `X-Forwarded-For` was believed from any client; `/v1` answers
/// lacked `nosniff`; `/health` told anyone the version.
@Suite("The client's address, and the headers of every answer")
struct ClientAndHeadersTests {
    @Test("X-Forwarded-For names the client only when a trusted proxy sends it")
    func forwardedFor() async throws {
        let fixture = try await ServerFixture.make()
        try await CheckpointTests.append(fixture.db, 2)
        var forwarded = fixture.headers("auditor")
        forwarded[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.9"
        let headers = forwarded
        let uri = "/v1/logs/acme/events?limit=1"   // a read of every subject, and cheap
        try await fixture.test(live: true) { client in
            let response = try await client.execute(uri: uri, method: .get, headers: headers)
            #expect(response.status == .ok)
        }
        var trusting = ServerSettings()
        trusting.trustedProxies = ["127.0.0.1", "::1"]
        try await fixture.test(settings: trusting, live: true) { client in
            let response = try await client.execute(uri: uri, method: .get, headers: headers)
            #expect(response.status == .ok)
        }
        let clients = try await fixture.db.as(.auditor) { client in
            var found: [String] = []
            for try await value in try await client.query("SELECT client FROM ledger.read_audit ORDER BY seq").decode(String.self) {
                found.append(value)
            }
            return found
        }
        #expect(clients.count == 2)
        #expect(clients.first != "203.0.113.9" && clients.first?.isEmpty == false, "an untrusted peer's header is ignored: \(clients)")
        #expect(clients.last == "203.0.113.9", "a trusted proxy's header names the client: \(clients)")
    }

    @Test("every answer says nosniff; /health names the software without its version")
    func headers() async throws {
        let fixture = try await ServerFixture.make()
        try await CheckpointTests.append(fixture.db, 2)
        try await fixture.test { client in
            for (uri, role) in [("/v1/logs/acme/events", "auditor"), ("/v1/logs/acme/nosuch", "auditor"), ("/health", nil),
                                ("/v1/logs/acme/events", nil)] {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(role))
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri): \(response.status)")
            }
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.json?["software"] == "consent-ledger" && !health.text.contains(LedgerSoftware.version), "\(health.text)")
        }
    }
}
