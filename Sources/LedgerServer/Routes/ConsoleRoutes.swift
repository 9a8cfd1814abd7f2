import Foundation
import HTTPTypes
import Hummingbird
import LedgerApplication
import LedgerConsole
import LedgerCore
import NIOConcurrencyHelpers
import NIOCore

/// The auditor's console (docs/console.md, decision 0048), read-only, under `/console`:
///
/// - `GET /console`: the sign-in page, or the signed-in key's log;
/// - `POST /console/sign-in` (form `key=…`): an auditor or admin API key exchanged for a session
///   cookie (HttpOnly, SameSite=Strict, Secure behind TLS, eight hours); `POST /console/sign-out`
///   ends the session on the server;
/// - `GET /console/logs/{log}`: the log at a glance; `GET /console/logs/{log}/subjects?pseudonym=`
///   finds a subject; `GET /console/logs/{log}/subjects/{subject}?asOf=&clock=`: its timeline;
///   `…/subjects/{subject}/explain?feature=`: why a feature was open; `…/events/{position}`: one
///   event; `…/findings`, `…/register`, `…/reports`: violations and anomalies, the consent
///   register, the regulator report's form; `…/reads` (admins): who looked at subjects' data;
///   `POST …/verify`: verify since the newest checkpoint, its progress streamed as NDJSON;
/// - `GET /console/logs/{log}/subjects/{subject}/dossier`, `…/proofs/inclusion`,
///   `…/reports/consent-register`, `…/reports/regulator` and `…/findings/stream` (the findings
///   page's live list): the API's very handlers (same bytes), reached with the session;
/// - `GET /console/assets/console.css|console.js`.
struct ConsoleRoutes {
    let operations: any LedgerOperations
    /// Each client's refused keys this minute, shared with the API (a guessed key costs the
    /// database nothing past the bound).
    let budget: RefusedKeyBudget
    let reports: ReportRoutes
    let proofs: VerifiableLogRoutes

    /// How long a session lasts.
    static let sessionLifetime: Duration = .seconds(8 * 3600)

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("", use: start)
        routes.post("sign-in", use: signIn)
        routes.post("sign-out", use: signOut)
        routes.get("assets/{file}", use: asset)
        routes.get("logs/{log}", use: overview)
        routes.get("logs/{log}/subjects", use: find)
        routes.get("logs/{log}/subjects/{subject}", use: subject)
        routes.get("logs/{log}/subjects/{subject}/dossier", use: reports.dossier)
        routes.get("logs/{log}/subjects/{subject}/explain", use: explain)
        routes.get("logs/{log}/proofs/inclusion", use: proofs.inclusion)
        routes.get("logs/{log}/reads", use: reads)
        routes.get("logs/{log}/findings", use: findings)
        routes.get("logs/{log}/findings/stream", use: FindingsStreamRoutes(operations: operations).stream)
        routes.get("logs/{log}/events/{position}", use: event)
        routes.get("logs/{log}/register", use: register)
        routes.post("logs/{log}/verify", use: verify)
        routes.get("logs/{log}/reports", use: reportsPage)
        routes.get("logs/{log}/reports/consent-register", use: reports.consentRegister)
        routes.get("logs/{log}/reports/regulator", use: reports.regulator)
        // Anything else under /console is a console page saying so, with the console's headers.
        routes.get("**", use: notFound)
        return routes
    }

    @Sendable func start(request: Request, context: LedgerRequestContext) async throws -> Response {
        if let key = context.key { return Self.redirect("/console/logs/\(key.log)") }
        return Self.page(SignInPage.render())
    }

    @Sendable func signIn(request: Request, context: LedgerRequestContext) async throws -> Response {
        try Self.requireSameOrigin(request)
        let body = try await request.body.collect(upTo: 4096)
        let token = Self.formValue("key", in: String(buffer: body))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !token.isEmpty else { return Self.page(SignInPage.render(problem: "Enter an API key."), status: .badRequest) }
        let client = context.readAccess(request).client
        try budget.check(context.remoteAddress)
        guard let key = try await operations.authenticate(token: token) else {
            budget.refused(context.remoteAddress)
            return Self.page(SignInPage.render(problem: "That key was not accepted: it is unknown, malformed or revoked."), status: .unauthorized)
        }
        guard key.role == .auditor || key.role == .admin else {
            return Self.page(SignInPage.render(problem: "An \(key.role.rawValue) key cannot open the console: use an auditor or admin key."),
                             status: .forbidden)
        }
        let session = try await operations.openConsoleSession(key: key, lifetime: Self.sessionLifetime, client: client)
        var response = Self.redirect("/console/logs/\(key.log)")
        let secure = context.forwardedOverTLS || request.uri.scheme == .https
        response.headers[.setCookie] = "\(ConsoleMiddleware.cookie)=\(session.token); Path=/console; HttpOnly; SameSite=Strict; "
            + "Max-Age=\(Self.sessionLifetime.components.seconds)" + (secure ? "; Secure" : "")
        return response
    }

    @Sendable func signOut(request: Request, context: LedgerRequestContext) async throws -> Response {
        try Self.requireSameOrigin(request)
        if let token = ConsoleMiddleware.sessionToken(request) { try await operations.endConsoleSession(token: token) }
        var response = Self.redirect("/console")
        response.headers[.setCookie] = "\(ConsoleMiddleware.cookie)=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0"
        return response
    }

    @Sendable func asset(request: Request, context: LedgerRequestContext) async throws -> Response {
        guard let asset = ConsoleAssets.asset(at: request.uri.path) else {
            throw Problem(.notFound, code: "not-found", detail: "there is no console asset at \(request.uri.path)")
        }
        if request.headers[.ifNoneMatch] == asset.etag { return Response(status: .notModified, headers: [.eTag: asset.etag]) }
        return Response(status: .ok, headers: [.contentType: asset.contentType, .eTag: asset.etag, .cacheControl: "no-cache"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    @Sendable func notFound(request: Request, context: LedgerRequestContext) async throws -> Response {
        throw Problem(.notFound, code: "not-found", detail: "the console has no page at \(request.uri.path)",
                      hint: "Start from /console.")
    }

    @Sendable func overview(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        return Self.page(OverviewPage.render(try await operations.consoleOverview(log: log), key: key))
    }

    @Sendable func reads(request: Request, context: LedgerRequestContext) async throws -> Response {
        let log = try context.path("log")
        let (_, key) = try signedIn(context, roles: [.admin])
        let query = request.uri.queryParameters
        let subject = query["subject"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let before = try EventRoutes.integer(query["before"], name: "before", minimum: 1)
        switch query["format"].map(String.init) {
        case nil:
            let records = try await operations.readAudit(log: log, subject: subject, limit: ReadAuditPage.pageSize, before: before)
            return Self.page(ReadAuditPage.render(log: log, subject: subject, records: records, key: key))
        case "csv"?, "json"?:
            let records = try await operations.readAudit(log: log, subject: subject, limit: Self.exportLimit, before: nil)
            let csv = query["format"] == "csv"
            let bytes = csv ? Array(ReadAuditPage.csv(records).utf8) : ReadAuditPage.json(log: log, subject: subject, records)
            return Response(status: .ok, headers: [.contentType: csv ? "text/csv; charset=utf-8" : "application/json",
                                                   .contentDisposition: "attachment; filename=\"reads-\(log).\(csv ? "csv" : "json")\""],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case let other?:
            throw Problem(.badRequest, code: "invalid-field", detail: "format must be csv or json, not \(other)", field: "format")
        }
    }

    @Sendable func findings(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let query = request.uri.queryParameters
        let kind = try LedgerRule.Kind.query(query["kind"])
        let before = try EventRoutes.integer(query["before"], name: "before", minimum: 1)
        let found = try await operations.findings(log: log, kind: kind, subject: nil, limit: FindingsPage.pageSize, before: before)
        return Self.page(FindingsPage.render(log: log, kind: kind, findings: found, key: key, live: before == nil))
    }

    @Sendable func event(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        guard let position = Int64(try context.path("position")), position >= 1 else {
            throw Problem(.badRequest, code: "invalid-field", detail: "a position is a whole number from 1", field: "position")
        }
        var found: StoredEvent?
        try await operations.readEvents(log: log, after: position - 1, limit: 1, stream: nil) { found = $0 }
        guard let event = found, event.position == position else {
            throw Problem(.notFound, code: "event-not-found", detail: "log \(log) has no event at position \(position)",
                          hint: "Positions run from 1 to the log's head (on the overview).")
        }
        if let subject = try? JSONParser.parse(event.record)["event"]?["subject"]?.stringValue {
            try await context.recordRead(request, operations: operations, log: log, what: "event", subject: subject,
                                         detail: "position \(position)")
        }
        return Self.page(EventPage.render(event, checkpoint: try await latestCheckpoint(log), key: key))
    }

    @Sendable func explain(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let subject = try context.path("subject")
        let query = request.uri.queryParameters
        guard let feature = query["feature"].map(String.init), !feature.isEmpty else {
            throw Problem(.badRequest, code: "missing-field", detail: "choose a feature to explain", field: "feature")
        }
        let clock = AsOf.Clock(rawValue: query["clock"].map(String.init) ?? "recorded") ?? .recorded
        let asOf = try AsOf.parse(query["asOf"].map(String.init), clock: clock)
        try await context.recordRead(request, operations: operations, log: log, what: "explain", subject: subject,
                                     detail: "feature \(feature) as of \(asOf)")
        let answer = try await operations.explain(log: log, subject: subject, feature: feature, asOf: asOf, policy: reports.policy)
        return Self.page(ExplainPage.render(answer, key: key))
    }

    /// Verifies the log since its newest checkpoint and records it. Asked for NDJSON (the page's
    /// script), it streams `{"done":N,"total":M}` lines as it goes, then `{"passed":…,"summary":…}`;
    /// otherwise it answers when done by going back to the overview, which shows the result.
    @Sendable func verify(request: Request, context: LedgerRequestContext) async throws -> Response {
        try Self.requireSameOrigin(request)
        let (log, key) = try signedIn(context)
        let operations = self.operations
        guard request.headers[.accept]?.contains("application/x-ndjson") == true else {
            _ = try await operations.verifyAndRecord(log: log, sinceCheckpoint: true, by: key.keyID, progress: { _, _ in }, treeNote: { _ in })
            return Self.redirect("/console/logs/\(log)")
        }
        let (lines, continuation) = AsyncStream<ByteBuffer>.makeStream()
        let last = NIOLockedValueBox<Int64>(-1)
        let task = Task {
            do {
                let verification = try await operations.verifyAndRecord(log: log, sinceCheckpoint: true, by: key.keyID, progress: { done, total in
                    // At most one line per percent: the page needs no more.
                    let step = max(total / 100, 1)
                    let due = last.withLockedValue { seen -> Bool in
                        guard done == total || done - seen >= step else { return false }
                        seen = done
                        return true
                    }
                    if due { continuation.yield(ByteBuffer(string: "{\"done\":\(done),\"total\":\(total)}\n")) }
                }, treeNote: { _ in })
                continuation.yield(ByteBuffer(bytes: CanonicalJSON.encode(["passed": .bool(verification.passed), "summary": .string(verification.summary)]) + [0x0A]))
            } catch {
                let message = (error as? LedgerError)?.message ?? "the verification could not run; the server's log says why"
                continuation.yield(ByteBuffer(bytes: CanonicalJSON.encode(["passed": .bool(false), "summary": .string(message)]) + [0x0A]))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody(asyncSequence: lines))
    }

    @Sendable func register(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let parameters = request.uri.queryParameters
        func text(_ name: String) -> String? {
            parameters[Substring(name)].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var query = ConsentRegisterEntries.Query()
        if let status = text("status") {
            guard ConsentRegisterEntries.Query.statuses.contains(status) else {
                throw Problem(.badRequest, code: "invalid-field", detail: "status \(status) is not one of \(ConsentRegisterEntries.Query.statuses.joined(separator: ", "))",
                              field: "status")
            }
            query.status = status
        }
        query.app = text("app")
        query.from = try ReportRoutes.time(text("from").map { Substring($0) }, name: "from")
        query.to = try ReportRoutes.time(text("to").map { Substring($0) }, name: "to")
        switch text("guardian") {
        case nil: break
        case "disclosed": query.guardianDisclosed = true
        case "undisclosed": query.guardianDisclosed = false
        case let other?: throw Problem(.badRequest, code: "invalid-field", detail: "guardian is disclosed or undisclosed, not \(other)", field: "guardian")
        }
        if let sort = text("sort") {
            guard let chosen = ConsentRegisterEntries.Sort(rawValue: sort) else {
                throw Problem(.badRequest, code: "invalid-field",
                              detail: "sort is one of \(ConsentRegisterEntries.Sort.allCases.map(\.rawValue).joined(separator: ", ")), not \(sort)", field: "sort")
            }
            query.sort = chosen
        }
        query.descending = text("order") != "asc"
        query.page = Int(try EventRoutes.integer(text("page").map { Substring($0) }, name: "page", minimum: 1) ?? 1) - 1
        // A page of the register names many subjects and their parents' answers: a read of every subject's data.
        try await context.recordRead(request, operations: operations, log: log, what: "register", subject: ReadAccess.everySubject,
                                     detail: "page \(query.page + 1)" + (query.status.map { ", status \($0)" } ?? "") + (query.app.map { ", app \($0)" } ?? ""))
        let page = try await operations.registerPage(log: log, query: query)
        return Self.page(RegisterPage.render(log: log, query: query, page: page, key: key))
    }

    @Sendable func reportsPage(request: Request, context: LedgerRequestContext) async throws -> Response {
        let (log, key) = try signedIn(context)
        let jurisdictions = try await operations.reportJurisdictions(log: log)
        return Self.page(ReportsPage.render(log: log, jurisdictions: jurisdictions, today: Date(), key: key))
    }

    /// The newest signed checkpoint of `log`, or nil before the first.
    func latestCheckpoint(_ log: String) async throws -> StoredCheckpoint? {
        do { return try await operations.latestCheckpoint(log: log) } catch let error as LedgerError where error.code == .checkpointNotFound {
            return nil
        }
    }

    /// The most reads one export holds.
    static let exportLimit = 1_000_000

    /// The path's log, when the session's key may read it: signed in (else 401, answered with the
    /// sign-in link), an auditor or admin key, of that log (else 403).
    func signedIn(_ context: LedgerRequestContext, roles: Set<APIRole> = [.auditor, .admin]) throws -> (String, APIKey) {
        let log = try context.path("log")
        guard context.key != nil else {
            throw Problem(.unauthorized, code: "unauthorized", detail: "you are not signed in, or your session ended",
                          hint: "Sign in again at /console.")
        }
        return (log, try context.require(roles, log: log))
    }

    /// Refuses a form posted from another origin (SameSite=Strict already keeps the cookie from it).
    static func requireSameOrigin(_ request: Request) throws {
        let host = request.head.authority ?? ""
        let origin = request.headers[.origin]
        let fromHere = origin.flatMap { URL(string: $0) }.flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } } == host
        if let origin, origin != "null", !fromHere {
            throw Problem(.forbidden, code: "forbidden", detail: "a form posted from \(origin) is refused", hint: "Use the console's own pages.")
        }
        // The console's pages say Referrer-Policy: no-referrer, so a browser posts their forms with
        // `Origin: null`; what it adds, `Sec-Fetch-Site`, no page can set. An opaque origin from
        // anywhere else (a sandboxed frame, a data: page), or no origin at all, is no proof of this
        // site (login CSRF, issue 36).
        guard fromHere || request.headers[Self.fetchSite] == "same-origin" else {
            throw Problem(.forbidden, code: "forbidden", detail: "a form posted from \(origin ?? "no origin") is refused",
                          hint: "Use the console's own pages, in a browser.")
        }
    }

    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// The value of `name` in an `application/x-www-form-urlencoded` body.
    static func formValue(_ name: String, in body: String) -> String? {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
