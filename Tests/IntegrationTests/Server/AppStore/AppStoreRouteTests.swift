import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing
import LedgerAppStore

/// `POST /v1/logs/{log}/app-store/notifications` on a real database.
@Suite("HTTP API App Store notifications")
struct AppStoreRouteTests {
    static let chain = try! TestAppleChain()
    static let uri = "/v1/logs/acme/app-store/notifications"

    var settings: ServerSettings {
        ServerSettings(appStore: AppStoreSettings(verifier: AppStoreSignedDataVerifier(roots: [Self.chain.root])))
    }

    static func body(_ signedPayload: String, subject: String = "p_child1", action: String = "accessRevoked",
                     extra: String = "") -> ByteBuffer {
        ByteBuffer(string: #"{"signedPayload":"\#(signedPayload)","subject":"\#(subject)","enforcementAction":"\#(action)"\#(extra)}"#)
    }

    @Test("a verified RESCIND_CONSENT becomes ConsentRescinded on the subject's stream; Apple's retry is a replay")
    func recordsAndReplays() async throws {
        let fixture = try await ServerFixture.make()
        let uuid = UUID().uuidString.lowercased()
        let jws = try Self.chain.rescindConsent(uuid: uuid)
        let body = Self.body(jws, extra: #","jurisdiction":{"code":"US-TX","basis":"storefront"}"#)
        try await fixture.test(settings: settings) { client in
            let first = try await client.execute(uri: Self.uri, method: .post, headers: fixture.headers("ingest"), body: body)
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json?["eventId"]?.stringValue == uuid)
            #expect(first.json?["stream"]?.stringValue == "subject-p_child1")
            let retry = try await client.execute(uri: Self.uri, method: .post, headers: fixture.headers("ingest"), body: body)
            #expect(retry.status == .ok, "\(retry.text)")
            #expect(retry.json?["idempotentReplay"]?.boolValue == true)
            #expect(retry.json?["position"] == first.json?["position"])
        }
        let record = try await fixture.db.as(.auditor) { client -> JSONValue? in
            let rows = try await client.query("SELECT convert_from(record, 'UTF8') FROM ledger.events WHERE log_id = 'acme'")
            var records: [String] = []
            for try await text in rows.decode(String.self) { records.append(text) }
            #expect(records.count == 1)
            return try records.first.map { try JSONParser.parse(Array($0.utf8)) }
        }
        let event = record?["event"]
        #expect(event?["type"]?.stringValue == "ConsentRescinded")
        #expect(event?["subject"]?.stringValue == "p_child1")
        #expect(event?["actor"]?["kind"]?.stringValue == "appStore")
        #expect(event?["jurisdiction"]?["code"]?.stringValue == "US-TX")
        let payload = event?["payload"]
        #expect(payload?["notificationUUID"]?.stringValue == uuid)
        #expect(payload?["signatureCheck"]?.stringValue == "valid")
        #expect(payload?["enforcementAction"]?.stringValue == "accessRevoked")
        #expect(payload?["appAppleId"]?.intValue == 6_471_234_567)
        #expect(payload?["appTransactionId"]?.stringValue == "704567890123456789", "from the verified signedAppTransactionInfo")
    }

    @Test("forged, altered and expired notifications are refused with problem+json, and nothing is stored")
    func refusesForgeries() async throws {
        let fixture = try await ServerFixture.make()
        let forger = try TestAppleChain(name: "Forged")
        let now = Date()
        let expired = try TestAppleChain(leafValidity: now.addingTimeInterval(-10 * 86_400)...now.addingTimeInterval(-86_400))
        var altered = try Self.chain.rescindConsent().split(separator: ".").map(String.init)
        altered[1] = try Self.chain.rescindConsent(bundleId: "com.example.other").split(separator: ".").map(String.init)[1]
        let cases: [(String, String, String)] = [
            ("forged chain", try forger.rescindConsent(), "not trusted"),
            ("altered payload", altered.joined(separator: "."), "does not verify"),
            ("expired leaf", try expired.rescindConsent(), "expired"),
            ("not a JWS", "hello", "malformed"),
        ]
        try await fixture.test(settings: settings) { client in
            for (name, jws, words) in cases {
                let response = try await client.execute(uri: Self.uri, method: .post, headers: fixture.headers("ingest"), body: Self.body(jws))
                #expect(response.status == .badRequest, "\(name): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(name)")
                #expect(response.json?["type"]?.stringValue?.hasSuffix("/app-store-signature-refused") == true, "\(name)")
                #expect(response.json?["field"]?.stringValue == "signedPayload", "\(name)")
                #expect(response.json?["detail"]?.stringValue?.contains(words) == true, "\(name): \(response.text)")
            }
        }
        #expect(try await fixture.db.as(.auditor) { try await $0.int("SELECT count(*) FROM ledger.events") } == 0)
    }

    @Test("bad bodies, other notification types, other apps and wrong roles are refused by name")
    func refusals() async throws {
        let fixture = try await ServerFixture.make()
        var strict = settings
        strict.appStore?.bundleIds = ["com.example.kidsdraw"]
        let jws = try Self.chain.rescindConsent()
        try await fixture.test(settings: strict) { client in
            func post(_ body: ByteBuffer, role: String? = "ingest") async throws -> TestResponse {
                try await client.execute(uri: Self.uri, method: .post, headers: fixture.headers(role), body: body)
            }
            var response = try await post(Self.body(jws, action: "shrugged"))
            #expect(response.status == .badRequest && response.json?["field"]?.stringValue == "enforcementAction", "\(response.text)")
            response = try await post(ByteBuffer(string: #"{"signedPayload":"x","enforcementAction":"pending"}"#))
            #expect(response.status == .badRequest && response.json?["field"]?.stringValue == "subject", "\(response.text)")
            response = try await post(Self.body(jws, extra: #","extra":1"#))
            #expect(response.status == .badRequest && response.json?["field"]?.stringValue == "extra", "\(response.text)")
            response = try await post(Self.body(jws, subject: "Jane Doe"))
            #expect(response.status == .badRequest && response.json?["field"]?.stringValue == "subject", "\(response.text)")
            response = try await post(Self.body(try Self.chain.rescindConsent(type: "DID_RENEW")))
            #expect(response.status == .badRequest && response.json?["field"]?.stringValue == "signedPayload.notificationType",
                    "\(response.text)")
            response = try await post(Self.body(try Self.chain.rescindConsent(bundleId: "com.example.other")))
            #expect(response.status == .forbidden && response.json?["field"]?.stringValue == "signedPayload.appData.bundleId",
                    "\(response.text)")
            response = try await post(Self.body(jws), role: "auditor")
            #expect(response.status == .forbidden)
            response = try await post(Self.body(jws), role: nil)
            #expect(response.status == .unauthorized)
            response = try await client.execute(uri: "/v1/logs/other/app-store/notifications", method: .post,
                                                headers: fixture.headers("ingest"), body: Self.body(jws))
            #expect(response.status == .forbidden, "another tenant's log")
        }
        #expect(try await fixture.db.as(.auditor) { try await $0.int("SELECT count(*) FROM ledger.events") } == 0)
    }

    @Test("without a configured root the route answers 501 and says how to configure it")
    func notConfigured() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let response = try await client.execute(uri: Self.uri, method: .post, headers: fixture.headers("admin"),
                                                    body: Self.body(try Self.chain.rescindConsent()))
            #expect(response.status == .notImplemented)
            #expect(response.json?["hint"]?.stringValue?.contains("--app-store-root") == true)
        }
    }
}
