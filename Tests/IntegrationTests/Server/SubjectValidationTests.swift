import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import Testing

/// Subjects from outside are checked before anything is read or recorded (issue 36, finding 9):
/// 2,600-character subjects in paths grew the undeletable record of reads, and past ~2.7 KB the
/// 500 quoted PostgreSQL's index error.
@Suite("Subjects in paths and queries are pseudonyms")
struct SubjectValidationTests {
    @Test("a subject that is no pseudonym is a 400 naming the rule, on every route that takes one, and records no read")
    func refused() async throws {
        let fixture = try await ServerFixture.make()
        try await CheckpointTests.append(fixture.db, 2)
        let long = String(repeating: "a", count: 2_600)
        let routes = ["/v1/logs/acme/subjects/\(long)/state",
                      "/v1/logs/acme/subjects/\(long)/dossier", "/v1/logs/acme/reports/consent-register?subject=\(long)",
                      "/v1/logs/acme/subjects/not%20a%20pseudonym/state", "/v1/logs/acme/subjects/a%40b.com/state"]
        try await fixture.test { client in
            for uri in routes {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers("auditor"))
                #expect(response.status == .badRequest, "\(uri.prefix(80)): \(response.status) \(response.text.prefix(300))")
                #expect(response.text.contains("is not a subject") && response.text.contains("1 to 128 characters"),
                        "\(uri.prefix(80)): \(response.text.prefix(300))")
                #expect(!response.text.contains("index"), "no database error is quoted")
            }
        }
        let reads = try await fixture.db.as(.auditor) { client in try await client.int("SELECT count(*) FROM ledger.read_audit") }
        #expect(reads == 0)
        // The database refuses one too, whoever calls it.
        try await fixture.db.as(.application) { client async throws in
            #expect(await client.sqlState("SELECT ledger.record_read('acme', 'api', 'k', 'state', repeat('a', 129), '', '')") == "22023")
        }
    }
}
