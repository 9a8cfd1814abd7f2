import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
import LedgerPostgres
import NIOCore
import Testing

/// The admin routes of webhook subscriptions (decision 0083), against a real database, each answer
/// validated against docs/openapi.json.
@Suite("Subscription routes")
struct SubscriptionRoutesTests {
    static let base = "/v1/logs/acme/subscriptions"

    @Test("create answers the secret once; list, show, replay, deliveries and delete answer what the document says")
    func lifecycle() async throws {
        let document = try OpenAPIContractTests.document()
        let validator = try OpenAPIContractTests.validator(document)
        let fixture = try await ServerFixture.make()
        @Sendable func check(_ response: TestResponse, _ path: String, _ method: String, _ status: String) throws {
            let pointer = try #require(OpenAPIContractTests.schemaPointer(document, path, method, status, "application/json"), "\(method) \(path) \(status)")
            #expect(try validator.violations(of: try #require(response.json), against: pointer) == [], "\(method) \(path): \(response.text)")
        }
        try await fixture.test { client in
            let created = try await client.execute(uri: Self.base, method: .post, headers: fixture.headers("admin"), body: ByteBuffer(string: """
                {"url": "https://backend.example/hooks/ledger", "eventTypes": ["ConsentRescinded"], "findingKinds": ["violation"], "label": "enforcement"}
                """))
            #expect(created.status == .created, "\(created.text)")
            try check(created, "/v1/logs/{log}/subscriptions", "post", "201")
            let id = try #require(created.json?["subscription"]?["id"]?.stringValue)
            #expect(created.json?["secret"]?.stringValue?.hasPrefix("whsec_") == true)
            let listed = try await client.execute(uri: Self.base, method: .get, headers: fixture.headers("admin"))
            try check(listed, "/v1/logs/{log}/subscriptions", "get", "200")
            #expect(listed.json?["subscriptions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [id])
            #expect(!listed.text.contains("whsec_"), "a list showed a secret")
            let shown = try await client.execute(uri: "\(Self.base)/\(id)", method: .get, headers: fixture.headers("admin"))
            try check(shown, "/v1/logs/{log}/subscriptions/{subscription}", "get", "200")
            #expect(shown.json?["state"]?.stringValue == "active" && shown.json?["deliveredThrough"]?.stringValue == "0")
            let replayed = try await client.execute(uri: "\(Self.base)/\(id)/replay", method: .post, headers: fixture.headers("admin"),
                                                    body: ByteBuffer(string: #"{"from": 5}"#))
            try check(replayed, "/v1/logs/{log}/subscriptions/{subscription}/replay", "post", "200")
            #expect(replayed.json?["deliveredThrough"]?.stringValue == "4")
            let log = try await client.execute(uri: "\(Self.base)/\(id)/deliveries?limit=5", method: .get, headers: fixture.headers("admin"))
            try check(log, "/v1/logs/{log}/subscriptions/{subscription}/deliveries", "get", "200")
            #expect(log.json?["deliveries"]?.arrayValue?.isEmpty == true)
            let deleted = try await client.execute(uri: "\(Self.base)/\(id)", method: .delete, headers: fixture.headers("admin"))
            try check(deleted, "/v1/logs/{log}/subscriptions/{subscription}", "delete", "200")
            #expect(deleted.json?["state"]?.stringValue == "deleted")
            let again = try await client.execute(uri: "\(Self.base)/\(id)/replay", method: .post, headers: fixture.headers("admin"),
                                                 body: ByteBuffer(string: #"{"from": 1}"#))
            #expect(again.status == .badRequest, "a deleted subscription was replayed: \(again.text)")
        }
    }

    @Test("refused before anything is stored: bad bodies name their field; only an admin key of the log; another log's subscription is not found")
    func refusals() async throws {
        let fixture = try await ServerFixture.make()
        let other = try await fixture.db.as(.administrator) { admin in
            try await SubscriptionStore(pool: admin).create(SubscriptionRequest(log: "other", url: "https://other.example/", findingKinds: [.violation])).0
        }
        try await fixture.test { client in
            for (body, field) in [
                (#"{"eventTypes": ["ConsentRescinded"]}"#, "url"),
                (#"{"url": "ftp://x.example/", "findingKinds": ["violation"]}"#, "url"),
                (#"{"url": "https://x.example/", "findingKinds": ["violations"]}"#, "findingKinds"),
                (#"{"url": "https://x.example/", "findingKinds": "violation"}"#, "findingKinds"),
                (#"{"url": "https://x.example/", "eventTypes": ["NoSuchEvent"]}"#, "eventTypes"),
                (#"{"url": "https://x.example/", "rules": ["no-such-rule"]}"#, "rules"),
                (#"{"url": "https://x.example/"}"#, "eventTypes"),
                (#"{"url": "https://x.example/", "findingKinds": ["violation"], "secret": "mine"}"#, "secret"),
            ] {
                let response = try await client.execute(uri: Self.base, method: .post, headers: fixture.headers("admin"), body: ByteBuffer(string: body))
                #expect(response.status == .badRequest && response.json?["field"]?.stringValue == field, "\(body): \(response.text)")
            }
            for role in ["ingest", "auditor"] {
                let response = try await client.execute(uri: Self.base, method: .get, headers: fixture.headers(role))
                #expect(response.status == .forbidden, "\(role): \(response.status)")
            }
            let otherLog = try await client.execute(uri: "/v1/logs/other/subscriptions", method: .get, headers: fixture.headers("admin"))
            #expect(otherLog.status == .forbidden)
            let notHere = try await client.execute(uri: "\(Self.base)/\(other.id)", method: .get, headers: fixture.headers("admin"))
            #expect(notHere.status == .notFound && notHere.json?["type"]?.stringValue?.hasSuffix("/subscription-not-found") == true, "\(notHere.text)")
            let notDeleted = try await client.execute(uri: "\(Self.base)/\(other.id)", method: .delete, headers: fixture.headers("admin"))
            #expect(notDeleted.status == .notFound)
            let malformed = try await client.execute(uri: "\(Self.base)/sub_X", method: .get, headers: fixture.headers("admin"))
            #expect(malformed.status == .badRequest && malformed.json?["field"]?.stringValue == "subscription")
            let badFrom = try await client.execute(uri: "\(Self.base)/\(other.id)/replay", method: .post, headers: fixture.headers("admin"),
                                                   body: ByteBuffer(string: #"{"from": 0}"#))
            #expect(badFrom.status == .badRequest && badFrom.json?["field"]?.stringValue == "from")
            let badLimit = try await client.execute(uri: "\(Self.base)/\(other.id)/deliveries?limit=0", method: .get, headers: fixture.headers("admin"))
            #expect(badLimit.status == .badRequest && badLimit.json?["field"]?.stringValue == "limit")
            let listed = try await client.execute(uri: Self.base, method: .get, headers: fixture.headers("admin"))
            #expect(listed.json?["subscriptions"]?.arrayValue?.isEmpty == true, "a refused request stored something: \(listed.text)")
        }
        let stillThere = try await fixture.db.as(.administrator) { admin in try await SubscriptionStore(pool: admin).subscription(other.id) }
        #expect(stillThere.state == .active)
    }
}
