import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// A 404 for a missing log named every tenant's log id in its hint (issue 36, finding 10), to any
/// key whose log had no events yet, and to anyone under --public-proofs.
@Suite("No tenant learns another's log id")
struct TenantIsolationHintTests {
    @Test("a key of a log without events, and an anonymous client of a public server, are told what to do, not which logs exist")
    func noLogIdsInHints() async throws {
        let fixture = try await ServerFixture.make()
        try await CheckpointTests.append(fixture.db, 2, log: "acme")
        let newTenant = try await fixture.db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "newcomer", role: .auditor, label: "test").1
        }
        var settings = ServerSettings()
        settings.publicProofs = true
        try await fixture.test(settings: settings) { client in
            let asked = [("/v1/logs/newcomer/events", ["Authorization": "Bearer \(newTenant)"]),
                         ("/v1/logs/newcomer/subjects", ["Authorization": "Bearer \(newTenant)"]),
                         ("/v1/logs/nosuch/checkpoint", [:])]
            for (uri, headers) in asked {
                var fields = HTTPFields()
                for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
                let response = try await client.execute(uri: uri, method: .get, headers: fields)
                #expect(response.status == .notFound, "\(uri): \(response.status) \(response.text)")
                #expect(!response.text.contains("acme"), "\(uri) names another tenant's log: \(response.text)")
                #expect(response.text.contains("log-not-found"), "\(uri): \(response.text)")
            }
        }
    }
}
