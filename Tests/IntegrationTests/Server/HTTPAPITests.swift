import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import LedgerServer
import NIOCore
import Testing
import LedgerSimulation

/// The HTTP API through its router, on a real database: each route, each role, tenants kept
/// apart, bad input refused with problem+json and nothing stored, retries that are safe.
@Suite("HTTP API")
struct HTTPAPITests {
    @Test("health is open; ready answers with the schema version")
    func health() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok && response.json?["status"] == "ok")
            }
            try await client.execute(uri: "/ready", method: .get) { response in
                // The version sql/manifest.txt declares, which the migration recorded.
                let declared = try SchemaManifest.embedded().version
                #expect(response.status == .ok && response.json?["schemaVersion"]?.intValue == declared)
            }
        }
    }

    @Test("a path the server has asked with a method it lacks is 405 with Allow; an unknown path is 404")
    func methodNotAllowed() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let cases: [(String, HTTPRequest.Method, String)] = [
                ("/v1/logs/acme/events", .delete, "GET, POST"),
                ("/v1/logs/acme/app-store/notifications", .get, "POST"),
                ("/v1/logs/acme/subjects/p_1/erase", .put, "POST"),
                ("/health", .post, "GET"),
            ]
            for (uri, method, allow) in cases {
                let response = try await client.execute(uri: uri, method: method, headers: fixture.headers("admin"))
                #expect(response.status == .methodNotAllowed, "\(method) \(uri): \(response.text)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            let unknown = try await client.execute(uri: "/v1/logs/acme/nothing", method: .get, headers: fixture.headers("admin"))
            #expect(unknown.status == .notFound && unknown.headers[.allow] == nil)
        }
    }

    @Test("append then read back: 201 with positions, the records as hashed, a retried key writes nothing")
    func appendAndRead() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let key: HTTPFields = [.init("Idempotency-Key")!: "batch-1"]
            let batch = ndjson(5)
            let first = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest", key), body: batch)
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json?["firstPosition"] == 1 && first.json?["lastPosition"] == 5 && first.json?["idempotentReplay"] == false)
            let retry = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest", key), body: batch)
            #expect(retry.status == .ok && retry.json?["idempotentReplay"] == true && retry.json?["lastPosition"] == 5)
            // The same key with other events is a conflict, and stores nothing.
            let reused = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest", key),
                                                  body: ndjson(2, offset: 1))
            #expect(reused.status == .conflict && reused.headers[.contentType] == "application/problem+json")
            // A JSON array is accepted too.
            let array = "[" + (0..<2).map { _ in Fixtures.line() }.joined(separator: ",") + "]"
            let second = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("admin"),
                                                  body: ByteBuffer(string: array))
            #expect(second.status == .created && second.json?["lastPosition"] == 7)

            let read = try await client.execute(uri: "/v1/logs/acme/events?after=2&limit=3", method: .get, headers: fixture.headers("auditor"))
            #expect(read.status == .ok && read.headers[.contentType] == "application/x-ndjson")
            let lines = read.text.split(separator: "\n")
            #expect(lines.count == 3)
            let record = try JSONParser.parse(String(lines[0]))
            #expect(record["position"] == 3 && record["leafHash"]?.stringValue?.count == 64)
        }
    }

    @Test("401 without or with a bad key, 403 for a role or a log the key does not have")
    func authentication() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for (role, method, uri, expected) in [
                (nil, HTTPRequest.Method.get, "/v1/logs/acme/events", HTTPResponse.Status.unauthorized),
                ("cl_aaaaaaaaaaaa_wrongsecret", .get, "/v1/logs/acme/events", .unauthorized),
                ("ingest", .get, "/v1/logs/acme/events", .forbidden),              // ingest may only append
                ("auditor", .post, "/v1/logs/acme/events", .forbidden),            // auditor may not append
                ("auditor", .post, "/v1/logs/acme/subjects/p_1/erase", .forbidden), // only admin erases
                ("otherIngest", .post, "/v1/logs/acme/events", .forbidden),        // another tenant's key
                ("admin", .get, "/v1/logs/other/events", .forbidden),              // admin of acme, not of other
            ] as [(String?, HTTPRequest.Method, String, HTTPResponse.Status)] {
                let response = try await client.execute(uri: uri, method: method, headers: fixture.headers(role), body: ndjson(1))
                #expect(response.status == expected, "\(role ?? "no key") \(method) \(uri): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
                if expected == .unauthorized { #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true) }
            }
            let stored = try await fixture.db.as(.auditor) { db in try await db.int("SELECT count(*) FROM ledger.events") }
            #expect(stored == 0)
        }
    }

    @Test("a revoked key is refused at once")
    func revoked() async throws {
        let fixture = try await ServerFixture.make()
        let keyID = String(fixture.tokens["ingest"]!.split(separator: "_")[1])
        let revoked = try await fixture.db.as(.administrator) { client in try await APIKeyStore(pool: client).revoke(keyID: keyID) }
        #expect(revoked)
        try await fixture.test { client in
            let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"), body: ndjson(1))
            #expect(response.status == .unauthorized)
        }
    }

    @Test("bad bodies are refused with problem+json naming the event and field, and nothing is stored", arguments: [
        ("not json\n", "invalid-json", 400),
        (Fixtures.line() + "\n" + Fixtures.line(payload: #"{"lowerBound":13,"child":{"birthDate":"2013-04-01"}}"#), "forbidden-personal-data", 400),
        (Fixtures.line() + "\n" + Fixtures.line(type: "NoSuchEvent"), "unknown-event-type", 400),
        ("", "invalid-request", 400),
    ])
    func badBodies(_ body: String, _ code: String, _ status: Int) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                                    body: ByteBuffer(string: body))
            #expect(response.status.code == status, "\(response.text)")
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try #require(response.json)
            #expect(problem["status"] == .number(Double(status)) && problem["detail"]?.stringValue?.isEmpty == false)
            #expect(problem["type"]?.stringValue?.hasSuffix(code) == true, "\(problem)")
            if body.contains("birthDate") { #expect(problem["line"] == 2) }
        }
        let stored = try await fixture.db.as(.auditor) { db in try await db.int("SELECT count(*) FROM ledger.events") }
        #expect(stored == 0)
    }

    @Test("limits: a batch over the limit and a body over the limit get 413, nothing stored")
    func limits() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(settings: ServerSettings(maxBodyBytes: 4096, maxBatchEvents: 3)) { client in
            let batch = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"), body: ndjson(4))
            #expect(batch.status == .contentTooLarge && batch.json?["type"]?.stringValue?.hasSuffix("batch-too-large") == true, "\(batch.text)")
            let big = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers("ingest"),
                                               body: ByteBuffer(string: String(repeating: " ", count: 5000) + Fixtures.line()))
            #expect(big.status == .contentTooLarge, "\(big.text)")
        }
        let stored = try await fixture.db.as(.auditor) { db in try await db.int("SELECT count(*) FROM ledger.events") }
        #expect(stored == 0)
    }

    @Test("state, dossier and reports for an auditor; erase for an admin")
    func readsAndErase() async throws {
        let fixture = try await ServerFixture.make()
        try await DemoStoryProjectionTests.appendStory(fixture.db, log: "acme")
        let subject = DemoHistory.subject
        try await fixture.test { client in
            let state = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/state", method: .get, headers: fixture.headers("auditor"))
            #expect(state.status == .ok && state.json?["state"]?["subject"]?.stringValue == subject, "\(state.text)")
            let early = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/state?asOf=3", method: .get, headers: fixture.headers("auditor"))
            #expect(early.json?["position"] == 3)
            let dossier = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/dossier", method: .get, headers: fixture.headers("auditor"))
            let dossierJSON = try #require(dossier.json)
            #expect(dossier.status == .ok && ReportSeal.verify(dossierJSON))
            #expect(dossier.headers[.init("Report-Seal")!] == dossier.json?["sha256"]?.stringValue)
            let csv = try await client.execute(uri: "/v1/logs/acme/reports/consent-register?format=csv", method: .get, headers: fixture.headers("auditor"))
            #expect(csv.status == .ok && csv.text.hasPrefix(ConsentRegisterReport.columns.joined(separator: ",")))
            let html = try await client.execute(uri: "/v1/logs/acme/reports/regulator?jurisdiction=US&from=2026-10-01&to=2026-12-01&format=html",
                                                method: .get, headers: fixture.headers("auditor"))
            #expect(html.status == .ok && html.text.hasPrefix("<!DOCTYPE html>"), "\(html.text.prefix(300))")
            let missing = try await client.execute(uri: "/v1/logs/acme/reports/regulator?jurisdiction=US", method: .get, headers: fixture.headers("auditor"))
            #expect(missing.status == .badRequest)
            let erase = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/erase", method: .post, headers: fixture.headers("admin"),
                                                 body: ByteBuffer(string: #"{"reason":"erasureRequest","requestReference":"ticket-9"}"#))
            #expect(erase.status == .ok && erase.json?["erased"] == true, "\(erase.text)")
            let badReason = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/erase", method: .post,
                                                     headers: fixture.headers("admin"), body: ByteBuffer(string: #"{"reason":"because"}"#))
            #expect(badReason.status == .badRequest && badReason.json?["field"]?.stringValue?.contains("reason") == true, "\(badReason.text)")
        }
    }
}

extension HTTPAPITests {
    @Test("what the fuzzer found: a second erasure, NUL characters, encoded paths, unknown subjects, endless periods")
    func fuzzerFindings() async throws {
        let fixture = try await ServerFixture.make()
        try await DemoStoryProjectionTests.appendStory(fixture.db, log: "acme")
        let subject = DemoHistory.subject
        try await fixture.test { client in
            let body = ByteBuffer(string: #"{"reason":"erasureRequest"}"#)
            let first = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/erase", method: .post, headers: fixture.headers("admin"), body: body)
            #expect(first.status == .ok)
            let second = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/erase", method: .post, headers: fixture.headers("admin"), body: body)
            #expect(second.status == .badRequest && second.json?["detail"]?.stringValue?.contains("already erased") == true, "\(second.text)")
            let typed = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/erase", method: .post, headers: fixture.headers("admin"),
                                                 body: ByteBuffer(string: #"{"reason":"erasureRequest","requestReference":5}"#))
            #expect(typed.status == .badRequest && typed.json?["field"] == "requestReference", "\(typed.text)")

            let backwards = try await client.execute(uri: "/v1/logs/acme/reports/consent-register?from=2026-10-01&to=2026-07-01",
                                                     method: .get, headers: fixture.headers("auditor"))
            #expect(backwards.status == .badRequest && backwards.json?["detail"]?.stringValue?.contains("period is empty") == true,
                    "\(backwards.text)")
            let future = try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/state?asOf=999999", method: .get,
                                                  headers: fixture.headers("auditor"))
            #expect(future.status == .badRequest && future.json?["field"] == "asOf", "\(future.text)")

            let nul = try await client.execute(uri: "/v1/logs/acme/events?stream=%00", method: .get, headers: fixture.headers("auditor"))
            #expect(nul.status == .badRequest && nul.json?["field"] == "stream", "\(nul.text)")
            let encoded = try await client.execute(uri: "/v1/logs/ac%6De/events?limit=1", method: .get, headers: fixture.headers("auditor"))
            #expect(encoded.status == .ok, "\(encoded.text)")
            let nobody = try await client.execute(uri: "/v1/logs/acme/subjects/p_nobody/dossier", method: .get, headers: fixture.headers("auditor"))
            #expect(nobody.status == .notFound && nobody.json?["type"]?.stringValue?.hasSuffix("subject-not-found") == true, "\(nobody.text)")
            let endless = try await client.execute(uri: "/v1/logs/acme/reports/regulator?jurisdiction=EU&from=0001-01-01&to=9999-12-31",
                                                   method: .get, headers: fixture.headers("auditor"))
            #expect(endless.status == .badRequest && endless.json?["detail"]?.stringValue?.contains("longer than") == true, "\(endless.text)")
        }
    }

    @Test("serve --report-policy: the regulator report applies it and every HTML page names its issuer and date of issue")
    func reportPolicy() async throws {
        let fixture = try await ServerFixture.make()
        try await DemoStoryProjectionTests.appendStory(fixture.db, log: "acme")
        let policy = try ReportPolicy.parse(Array(#"{"issuer": {"organisation": "Example Kids Ltd"}, "dateOfIssue": "2026-11-24", "rescissionEnforcementWindowHours": 2}"#.utf8))
        try await fixture.test(settings: ServerSettings(reportPolicy: policy)) { client in
            let json = try await client.execute(uri: "/v1/logs/acme/reports/regulator?jurisdiction=US&from=2026-10-01&to=2026-12-01",
                                                method: .get, headers: fixture.headers("auditor"))
            #expect(json.json?["policy"]?["rescissionEnforcementWindowHours"] == 2, "\(json.text.prefix(300))")
            for uri in ["/v1/logs/acme/reports/regulator?jurisdiction=US&from=2026-10-01&to=2026-12-01&format=html",
                        "/v1/logs/acme/reports/consent-register?format=html", "/v1/logs/acme/subjects/\(DemoHistory.subject)/dossier?format=html"] {
                let page = try await client.execute(uri: uri, method: .get, headers: fixture.headers("auditor"))
                #expect(page.status == .ok && page.text.contains("Issued by <strong>Example Kids Ltd</strong>; date of issue <strong>2026-11-24</strong>."), "\(uri)")
            }
        }
    }
}
