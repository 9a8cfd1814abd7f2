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

/// The console's door (issue 21, decision 0048): an auditor or admin key exchanged for a session
/// cookie with the right flags, a session that sees only its key's log and that sign-out ends on the
/// server, the security headers on every page, errors as pages. The browser's side (the pages'
/// content, proofs checked with WebCrypto) is tools/console-check, in Chromium.
@Suite("The console's sessions and headers")
struct ConsoleRouteTests {
    /// A browser's form post: it says the page it came from is this site's.
    static func signIn(_ client: some TestClientProtocol, token: String,
                       headers: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]) async throws -> TestResponse {
        var fields = headers
        fields[.contentType] = "application/x-www-form-urlencoded"
        let body = "key=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
        return try await client.execute(uri: "/console/sign-in", method: .post, headers: fields, body: ByteBuffer(string: body))
    }

    static func session(of response: TestResponse) -> String? {
        guard let cookie = response.headers[.setCookie], cookie.hasPrefix("consent_ledger_console=cs_") else { return nil }
        return String(cookie.dropFirst("consent_ledger_console=".count).prefix { $0 != ";" })
    }

    static func cookie(_ session: String) -> HTTPFields {
        [.cookie: "consent_ledger_console=\(session)", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
    }

    @Test("an auditor key opens a session (HttpOnly, SameSite=Strict, 8 h); wrong, ingest and empty keys get a page and no cookie")
    func signIn() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 2, days: 3, seed: 4)
        try await fixture.test { client in
            let good = try await Self.signIn(client, token: fixture.tokens["auditor"]!)
            #expect(good.status == .seeOther)
            #expect(good.headers[.location] == "/console/logs/acme")
            let cookie = try #require(good.headers[.setCookie])
            for part in ["Path=/console", "HttpOnly", "SameSite=Strict", "Max-Age=28800"] { #expect(cookie.contains(part), "\(part)") }
            #expect(!cookie.contains("Secure"), "plain HTTP: no Secure flag, or the browser would drop the cookie")
            #expect(!cookie.contains(fixture.tokens["auditor"]!), "the key itself is never the cookie")
            // X-Forwarded-Proto from a peer that is not a trusted proxy says nothing.
            let claimed = try await Self.signIn(client, token: fixture.tokens["admin"]!, headers: Self.forwardedHTTPS)
            #expect(claimed.status == .seeOther && claimed.headers[.setCookie]?.contains("Secure") == false, "\(claimed.headers)")
            for (token, status, says) in [("cl_aaaaaaaaaaaa_wrong", HTTPResponse.Status.unauthorized, "not accepted"),
                                          (fixture.tokens["ingest"]!, .forbidden, "cannot open the console"),
                                          ("", .badRequest, "Enter an API key")] {
                let response = try await Self.signIn(client, token: token)
                #expect(response.status == status, "\(token)")
                #expect(response.headers[.setCookie] == nil, "\(token)")
                #expect(response.text.contains(says), "\(token): \(response.text)")
            }
            let foreign = try await Self.signIn(client, token: fixture.tokens["auditor"]!, headers: [.origin: "https://evil.example"])
            #expect(foreign.status == .forbidden, "a sign-in form posted from another site")
            // Login CSRF (issue 36): an opaque origin, or no origin at all, is no proof of this site.
            for headers: HTTPFields in [[.origin: "null"], [:], [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]] {
                let refused = try await Self.signIn(client, token: fixture.tokens["auditor"]!, headers: headers)
                #expect(refused.status == .forbidden && refused.headers[.setCookie] == nil, "\(headers)")
            }
            // What a browser sends from the console's own page, whose Referrer-Policy is no-referrer.
            let own = try await Self.signIn(client, token: fixture.tokens["auditor"]!,
                                            headers: [.origin: "null", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(own.status == .seeOther, "\(own.text)")
        }
    }

    static let forwardedHTTPS: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]

    @Test("behind a trusted TLS proxy the session cookie is Secure; the same header from any other peer is ignored")
    func secureBehindTrustedProxy() async throws {
        let fixture = try await ServerFixture.make()
        var trusting = ServerSettings()
        trusting.trustedProxies = ["127.0.0.1", "::1"]
        try await fixture.test(settings: trusting, live: true) { client in
            let behindTLS = try await Self.signIn(client, token: fixture.tokens["admin"]!, headers: Self.forwardedHTTPS)
            #expect(behindTLS.status == .seeOther && behindTLS.headers[.setCookie]?.contains("; Secure") == true, "\(behindTLS.headers)")
        }
        try await fixture.test(live: true) { client in
            let untrusted = try await Self.signIn(client, token: fixture.tokens["admin"]!, headers: Self.forwardedHTTPS)
            #expect(untrusted.status == .seeOther && untrusted.headers[.setCookie]?.contains("Secure") == false, "\(untrusted.headers)")
        }
    }

    @Test("a session reads only its key's log; sign-out ends it on the server; revoking the key ends it too")
    func sessionScope() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 2, days: 3, seed: 5)
        try await fixture.test { client in
            let session = try #require(Self.session(of: try await Self.signIn(client, token: fixture.tokens["auditor"]!)))
            let page = try await client.execute(uri: "/console/logs/acme", method: .get, headers: Self.cookie(session))
            #expect(page.status == .ok)
            #expect(page.text.contains("id=\"head-position\""))
            let other = try await client.execute(uri: "/console/logs/other", method: .get, headers: Self.cookie(session))
            #expect(other.status == .forbidden)
            #expect(other.headers[.contentType] == "text/html; charset=utf-8", "errors are pages")
            #expect(other.text.contains("another log"))
            let api = try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: Self.cookie(session))
            #expect(api.status == .unauthorized, "the console's cookie does not open the API")
            let none = try await client.execute(uri: "/console/logs/acme", method: .get)
            #expect(none.status == .unauthorized)
            #expect(none.text.contains("Sign in"))

            let out = try await client.execute(uri: "/console/sign-out", method: .post, headers: Self.cookie(session))
            #expect(out.status == .seeOther)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            let after = try await client.execute(uri: "/console/logs/acme", method: .get, headers: Self.cookie(session))
            #expect(after.status == .unauthorized, "the server ended the session, not only the browser's cookie")

            let second = try #require(Self.session(of: try await Self.signIn(client, token: fixture.tokens["admin"]!)))
            let admin = try await fixture.db.as(.administrator) { client in
                try await APIKeyStore(pool: client).list(log: "acme").first { $0.role == .admin }!.keyID
            }
            try await fixture.db.as(.administrator) { client in _ = try await APIKeyStore(pool: client).revoke(keyID: admin) }
            let revoked = try await client.execute(uri: "/console/logs/acme", method: .get, headers: Self.cookie(second))
            #expect(revoked.status == .unauthorized, "a revoked key's session ends with it")
        }
    }

    @Test("every console answer carries a strict Content-Security-Policy and the usual security headers; assets are the console's own")
    func headers() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for uri in ["/console", "/console/logs/acme", "/console/assets/console.js", "/console/nowhere"] {
                let response = try await client.execute(uri: uri, method: .get)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"), "\(uri)")
                #expect(policy.contains("frame-ancestors 'none'"), "\(uri)")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(uri)")
            }
            let page = try await client.execute(uri: "/console", method: .get)
            #expect(!page.text.contains("<script>") && !page.text.contains("style="), "no inline script or style")
            let script = try await client.execute(uri: "/console/assets/console.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("crypto.subtle.verify"))
            let etag = try #require(script.headers[.eTag])
            let again = try await client.execute(uri: "/console/assets/console.js", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test("every read of a subject's data, through the console, the API or a store call as the CLI makes, is recorded first, chained, and shown to admins only")
    func readsRecorded() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 2, days: 3, seed: 6)
        let subject = try await fixture.db.as(.auditor) { client in
            var found = ""
            for try await value in try await client.query(
                "SELECT subject FROM ledger.events WHERE log_id = 'acme' AND subject IS NOT NULL ORDER BY position LIMIT 1").decode(String.self) {
                found = value
            }
            return found
        }
        let auditorID = String(fixture.tokens["auditor"]!.split(separator: "_")[1])
        try await fixture.test { client in
            let bearer = fixture.headers("auditor")
            #expect(try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/state", method: .get, headers: bearer).status == .ok)
            #expect(try await client.execute(uri: "/v1/logs/acme/subjects/\(subject)/dossier?format=csv", method: .get, headers: bearer).status == .ok)
            #expect(try await client.execute(uri: "/v1/logs/acme/reports/consent-register?subject=\(subject)", method: .get, headers: bearer).status == .ok)
            #expect(try await client.execute(uri: "/v1/logs/acme/reports/consent-register", method: .get, headers: bearer).status == .ok)
            let session = try #require(Self.session(of: try await Self.signIn(client, token: fixture.tokens["auditor"]!)))
            #expect(try await client.execute(uri: "/console/logs/acme/subjects/\(subject)?asOf=5", method: .get, headers: Self.cookie(session)).status == .ok)
            let refused = try await client.execute(uri: "/console/logs/acme/reads", method: .get, headers: Self.cookie(session))
            #expect(refused.status == .forbidden, "an auditor does not see who read what: admins do")

            let admin = try #require(Self.session(of: try await Self.signIn(client, token: fixture.tokens["admin"]!)))
            let page = try await client.execute(uri: "/console/logs/acme/reads?subject=\(subject)", method: .get, headers: Self.cookie(admin))
            #expect(page.status == .ok)
            #expect(page.text.contains(auditorID))
            let csv = try await client.execute(uri: "/console/logs/acme/reads?format=csv", method: .get, headers: Self.cookie(admin)).text
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "seq,readAt,channel,reader,client,what,subject,detail,chainHash")
            let kinds = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }.map { "\($0[2]) \($0[3]) \($0[5]) \($0[6])" }
            #expect(kinds == ["api \(auditorID) state \(subject)", "api \(auditorID) dossier \(subject)",
                              "api \(auditorID) consent-register \(subject)", "api \(auditorID) consent-register *",
                              "console \(auditorID) replay \(subject)"],
                    "one row per read of the subject's data, in order; the unfiltered register is a read of every subject (*)")
        }
        try await fixture.db.as(.auditor) { client in
            let ledgerReads = ReadAuditStore(pool: client)
            try await ledgerReads.record(log: "acme", access: ReadAccess(channel: .cli, reader: "cli/test", client: "host"), what: "replay",
                                         subject: subject, detail: "as of head")
            #expect(try await ledgerReads.verify(log: "acme") == nil)
            // The subject's four reads, the whole register's (*) and the store call's.
            #expect(try await ledgerReads.list(log: "acme", subject: subject).count == 6)
            await #expect(throws: (any Error).self) {
                try await ledgerReads.record(log: "nosuch", access: ReadAccess(channel: .cli, reader: "cli/test", client: ""), what: "replay",
                                             subject: subject, detail: "")
            }
        }
        try await fixture.db.as(.administrator) { client async throws in
            #expect(await client.sqlState("UPDATE ledger.read_audit SET reader = 'someone else'") == "CL005")
            #expect(await client.sqlState("DELETE FROM ledger.read_audit") == "CL005")
        }
        try await CheckpointTests.tamper(fixture.db, table: "ledger.read_audit",
                                         "UPDATE ledger.read_audit SET record = replace(record, 'OS user test', 'OS user nobody') WHERE seq = 6")
        let problem = try await fixture.db.as(.auditor) { client in try await ReadAuditStore(pool: client).verify(log: "acme") }
        #expect(problem?.contains("read 6") == true, "a rewritten read is found: \(problem ?? "nothing found")")
    }

    @Test("issue 39: a subject's page in sections and words; a pseudonym found by its start, a mistyped one answered with the near matches (recorded as a read of every subject); the register's status totals; the report form's jurisdictions")
    func readsWithoutHelp() async throws {
        let fixture = try await ServerFixture.make()
        try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 6, days: 10, seed: 39)
        let subjects = try await fixture.db.as(.administrator) { client in
            try await ProjectionRunner(pool: client).runOnce()
            return try await SubjectDirectory(pool: client).find(log: "acme", limit: 1_000).entries.map(\.subject)
        }
        let subject = try #require(subjects.first)
        try await fixture.test { client in
            let session = try #require(Self.session(of: try await Self.signIn(client, token: fixture.tokens["auditor"]!)))
            let page = try await client.execute(uri: "/console/logs/acme/subjects/\(subject)", method: .get, headers: Self.cookie(session))
            #expect(page.status == .ok)
            for part in ["state-age", "state-features", "state-consents", "state-findings", "state-app-facts", "state-json"] {
                #expect(page.text.contains("id=\"\(part)\""), "\(part)")
            }
            #expect(!page.text.contains("<dl class=\"json\">"), "no JSON tree in the open")

            // The whole pseudonym but its last character: the one subject that starts so is opened.
            let found = try await client.execute(uri: "/console/logs/acme/subjects?pseudonym=\(subject.dropLast())", method: .get, headers: Self.cookie(session))
            #expect(found.status == .seeOther && found.headers[.location] == "/console/logs/acme/subjects/\(subject)", "\(found.text)")
            // Its first three characters: every subject of the log that starts so, listed.
            let stem = String(subject.prefix(3))
            let listed = try await client.execute(uri: "/console/logs/acme/subjects?pseudonym=\(stem)", method: .get, headers: Self.cookie(session))
            let starting = subjects.filter { $0.hasPrefix(stem) }
            if starting.count > 1 {
                #expect(listed.status == .ok && listed.text.contains("id=\"subject-matches\""))
                // In pseudonym order: the first that starts so is on the page, however many are listed.
                #expect(listed.text.contains("/subjects/\(starting.sorted()[0])\""))
            }
            // A mistyped pseudonym: 404, in words, with the subject it was meant to be.
            let typo = String(subject.dropLast(3)) + "zzz"
            let missing = try await client.execute(uri: "/console/logs/acme/subjects/\(typo)", method: .get, headers: Self.cookie(session))
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("Subject not found") && missing.text.contains("/subjects/\(subject)\""), "\(missing.text)")
            #expect(!missing.text.contains("consent-ledger") && !missing.text.contains("--prefix"), "no command for a browser user")

            let register = try await client.execute(uri: "/console/logs/acme/register", method: .get, headers: Self.cookie(session))
            #expect(register.status == .ok && register.text.contains("id=\"status-totals\""))
            let reports = try await client.execute(uri: "/console/logs/acme/reports", method: .get, headers: Self.cookie(session))
            #expect(reports.text.contains("<select id=\"jurisdiction\"") && reports.text.contains("data-from="), "\(reports.text)")
        }
        let reads = try await fixture.db.as(.auditor) { client in try await ReadAuditStore(pool: client).list(log: "acme", limit: 100) }
        #expect(reads.contains { $0.what == "find" && $0.subject == ReadAccess.everySubject }, "listing pseudonyms is a recorded read of every subject")
    }
}

