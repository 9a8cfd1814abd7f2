import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import Testing

@Suite("GET /v1/logs/{log}/subjects")
struct SubjectListTests {
    @Test("auditors find subjects by prefix and mark, page by page, as the document says; bad input is a 400, other roles 403")
    func findSubjects() async throws {
        let fixture = try await ServerFixture.make()
        try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 20, days: 20, seed: 15)
        let expected = try await fixture.db.as(.administrator) { client in
            try await ProjectionRunner(pool: client).runOnce()
            return try await SubjectDirectory(pool: client).find(log: "acme", has: .violation, limit: 1_000)
        }
        try await fixture.test { client in
            let response = try await client.execute(uri: "/v1/logs/acme/subjects?has=violation&limit=1000", method: .get,
                                                    headers: fixture.headers("auditor"))
            #expect(response.status == .ok, "\(response.text)")
            let subjects = response.json?["subjects"]?.arrayValue ?? []
            #expect(subjects.map { $0["subject"]?.stringValue ?? "" } == expected.entries.map(\.subject))
            #expect(subjects.allSatisfy { ($0["violations"]?.intValue ?? 0) > 0 })
            #expect(response.json?["projectedThrough"]?.intValue == response.json?["head"]?.intValue)
            let document = try OpenAPIContractTests.document()
            let pointer = try #require(OpenAPIContractTests.schemaPointer(document, "/v1/logs/{log}/subjects", "get", "200", "application/json"))
            #expect(try OpenAPIContractTests.validator(document).violations(of: try #require(response.json), against: pointer) == [])

            var seen: [String] = []
            var after: String?
            repeat {
                let uri = "/v1/logs/acme/subjects?limit=7" + (after.map { "&after=\($0)" } ?? "")
                let page = try await client.execute(uri: uri, method: .get, headers: fixture.headers("admin"))
                #expect(page.status == .ok)
                seen += (page.json?["subjects"]?.arrayValue ?? []).map { $0["subject"]?.stringValue ?? "" }
                after = page.json?["next"]?.stringValue
            } while after != nil
            #expect(seen == seen.sorted() && Set(seen).count == seen.count && !seen.isEmpty)
            let prefix = String(seen[seen.count / 2].prefix(4))
            let byPrefix = try await client.execute(uri: "/v1/logs/acme/subjects?prefix=\(prefix)&limit=1000", method: .get,
                                                    headers: fixture.headers("auditor"))
            #expect((byPrefix.json?["subjects"]?.arrayValue ?? []).map { $0["subject"]?.stringValue ?? "" } == seen.filter { $0.hasPrefix(prefix) })

            for (uri, field) in [("/v1/logs/acme/subjects?has=denials", "has"), ("/v1/logs/acme/subjects?limit=0", "limit"),
                                 ("/v1/logs/acme/subjects?limit=x", "limit"),
                                 ("/v1/logs/acme/subjects?prefix=" + String(repeating: "0", count: 129), "prefix"),
                                 ("/v1/logs/acme/subjects?after=" + String(repeating: "p", count: 129), "after")] {
                let bad = try await client.execute(uri: uri, method: .get, headers: fixture.headers("auditor"))
                #expect(bad.status == .badRequest && bad.json?["field"]?.stringValue == field, "\(uri): \(bad.text)")
            }
            let ingest = try await client.execute(uri: "/v1/logs/acme/subjects", method: .get, headers: fixture.headers("ingest"))
            #expect(ingest.status == .forbidden)
            let missing = try await client.execute(uri: "/v1/logs/nolog/subjects", method: .get, headers: fixture.headers("auditor"))
            #expect(missing.status == .forbidden || missing.status == .notFound)
        }
    }
}
