import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerAPIModel
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// The route layer on its own: requests parsed, keys' roles checked, answers and problems written,
/// against scripted operations. No database is started.
@Suite("HTTP route layer (no database)")
struct RouteLayerTests {
    static func line(id: String = UUID().uuidString.lowercased()) -> String {
        #"{"eventId":"\#(id)","stream":"subject-p_1","type":"AgeRangeShared","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","actor":{"kind":"app"},"app":{"bundleId":"com.example.kids","platform":"iOS"},"payload":{"lowerBound":13,"upperBound":15}}"#
    }

    static func headers(_ token: String, _ extra: HTTPFields = [:]) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        fields.append(contentsOf: extra)
        return fields
    }

    static func test<Value: Sendable>(_ ledger: ScriptedLedger, settings: ServerSettings = ServerSettings(),
                                      _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: LedgerAPI(operations: ledger, settings: settings).router()).test(.router, body)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
    }

    @Test("an append answers with integer positions beyond 2^32, and passes the batch and its key through once")
    func appendAnswer() async throws {
        let big: Int64 = 4_294_967_301
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: [.success(AppendResult(events: [
            .init(position: big, eventId: "a", stream: "subject-p_1", streamVersion: 2),
            .init(position: big + 1, eventId: "b", stream: "subject-p_1", streamVersion: 3),
        ], idempotentReplay: false))]))
        let response = try await Self.test(ledger) { client in
            try await client.execute(uri: "/v1/logs/acme/events", method: .post,
                                     headers: Self.headers(TestKeys.ingest, [HTTPField.Name("Idempotency-Key")!: "batch-7"]),
                                     body: ByteBuffer(string: Self.line() + "\n" + Self.line() + "\n"))
        }
        #expect(response.status == .created)
        let text = String(buffer: response.body)
        #expect(text.contains(#""firstPosition":4294967301"#), "positions are written as integers: \(text)")
        let answer = try Self.decode(APIModel.AppendResult.self, response)
        #expect(answer == APIModel.AppendResult(log: "acme", idempotentReplay: false, events: [
            .init(position: big, eventId: "a", stream: "subject-p_1", streamVersion: 2),
            .init(position: big + 1, eventId: "b", stream: "subject-p_1", streamVersion: 3),
        ]))
        #expect(ledger.calls.contains(ScriptedLedger.Call.append(log: "acme", events: 2, idempotencyKey: "batch-7")))
    }

    @Test("a replayed batch is 200 with idempotentReplay")
    func replayIs200() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: [.success(AppendResult(events: [
            .init(position: 1, eventId: "a", stream: "subject-p_1", streamVersion: 1)], idempotentReplay: true))]))
        let response = try await Self.test(ledger) { client in
            try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: Self.headers(TestKeys.admin),
                                     body: ByteBuffer(string: Self.line()))
        }
        #expect(response.status == .ok)
        #expect(try Self.decode(APIModel.AppendResult.self, response).idempotentReplay)
        #expect(ledger.idempotencyKeys == [nil], "a single event without a key reaches the ledger without one (group commit)")
    }

    @Test("no key, an unknown key, another log's key and a role that may not: 401 or 403, and no operation runs")
    func keysAndRoles() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all))
        let (missing, unknown, auditorAppends, ingestReads) = try await Self.test(ledger) { client in
            (try await client.execute(uri: "/v1/logs/acme/events", method: .post, body: ByteBuffer(string: Self.line())),
             try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: Self.headers("cl_nobody_x"),
                                      body: ByteBuffer(string: Self.line())),
             try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: Self.headers(TestKeys.auditor),
                                      body: ByteBuffer(string: Self.line())),
             try await client.execute(uri: "/v1/logs/other/subjects", method: .get, headers: Self.headers(TestKeys.ingest)))
        }
        #expect(missing.status == .unauthorized)
        #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="consent-ledger""#)
        #expect(unknown.status == .unauthorized)
        #expect(auditorAppends.status == .forbidden)
        #expect(ingestReads.status == .forbidden)
        #expect(try Self.decode(APIModel.ProblemDocument.self, auditorAppends).code == "forbidden")
        #expect(ledger.calls.allSatisfy { if case .authenticate = $0 { return true } else { return false } },
                "only authentication ran: \(ledger.calls)")
    }

    @Test("every kind of ledger error has its status, and 503 says when to retry")
    func errorKinds() async throws {
        let cases: [(LedgerError.Code, HTTPResponse.Status)] = [
            (.invalidField, .badRequest), (.invalidLogId, .badRequest), (.wrongExpectedVersion, .conflict),
            (.duplicateEventId, .conflict), (.logNotFound, .notFound), (.recordTooLarge, .contentTooLarge),
            (.databaseUnavailable, .serviceUnavailable), (.integrityFailure, .internalServerError),
        ]
        for (code, status) in cases {
            let ledger = ScriptedLedger(.init(keys: TestKeys.all, append: [.failure(LedgerError(code, "scripted \(code)", field: "stream", line: 1))]))
            let response = try await Self.test(ledger) { client in
                try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: Self.headers(TestKeys.ingest),
                                         body: ByteBuffer(string: Self.line()))
            }
            #expect(response.status == status, "\(code)")
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try Self.decode(APIModel.ProblemDocument.self, response)
            #expect(problem.code == code.rawValue && problem.detail == "scripted \(code)" && problem.field == "stream" && problem.line == 1)
            #expect((response.headers[.retryAfter] != nil) == (status == .serviceUnavailable), "\(code): Retry-After only on 503")
        }
    }

    @Test("bad query parameters are 400 naming the parameter, before any operation")
    func badQueries() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all))
        let answers = try await Self.test(ledger) { client in
            var answers: [(String, TestResponse)] = []
            for (field, uri) in [("limit", "/v1/logs/acme/subjects?limit=abc"), ("limit", "/v1/logs/acme/subjects?limit=0"),
                                 ("has", "/v1/logs/acme/subjects?has=nothing"), ("after", "/v1/logs/acme/events?after=-1"),
                                 ("clock", "/v1/logs/acme/subjects/p_1/state?clock=wall"),
                                 ("format", "/v1/logs/acme/reports/consent-register?format=pdf")] {
                answers.append((field, try await client.execute(uri: uri, method: .get, headers: Self.headers(TestKeys.auditor))))
            }
            return answers
        }
        for (field, response) in answers {
            #expect(response.status == .badRequest, "\(field)")
            #expect(try Self.decode(APIModel.ProblemDocument.self, response).field == field)
        }
        #expect(!ledger.calls.contains { if case .authenticate = $0 { return false } else { return true } }, "\(ledger.calls)")
    }

    @Test("a subject page writes next as null on the last page, counts as integers")
    func subjectPage() async throws {
        let entry = SubjectDirectory.Entry(subject: "p_1", ageCategory: nil, erased: false, consentItems: 3, denials: 1, rescissions: 0,
                                           violations: 0, lastPosition: 12)
        let ledger = ScriptedLedger(.init(keys: TestKeys.all, subjects: .success(.init(entries: [entry], next: nil, projectedThrough: 12, head: 14))))
        let response = try await Self.test(ledger) { client in
            try await client.execute(uri: "/v1/logs/acme/subjects?prefix=p_&limit=5&after=p_0", method: .get, headers: Self.headers(TestKeys.auditor))
        }
        #expect(response.status == .ok)
        let text = String(buffer: response.body)
        #expect(text.contains(#""next":null"#) && text.contains(#""ageCategory":null"#), "\(text)")
        #expect(try Self.decode(APIModel.SubjectList.self, response).subjects.first?.lastPosition == 12)
        #expect(ledger.calls.last == .findSubjects(log: "acme", prefix: "p_", limit: 5, after: "p_0"))
    }

    @Test("a subject with no state as of the moment is 404 with the ledger's explanation as the hint")
    func emptyState() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all,
                                          state: .success(SubjectStates(position: 2, snapshots: [], emptyMoment: "the first event was recorded later"))))
        let response = try await Self.test(ledger) { client in
            try await client.execute(uri: "/v1/logs/acme/subjects/p_1/state?asOf=2", method: .get, headers: Self.headers(TestKeys.auditor))
        }
        #expect(response.status == .notFound)
        let problem = try Self.decode(APIModel.ProblemDocument.self, response)
        #expect(problem.code == "subject-not-found" && problem.hint == "the first event was recorded later")
        #expect(ledger.calls.last == .state(log: "acme", subject: "p_1", asOf: "\(AsOf.position(2))"))
    }

    @Test("/ready: 200 with the schema version, or 503 with Retry-After when the database does not answer")
    func ready() async throws {
        let up = try await Self.test(ScriptedLedger()) { try await $0.execute(uri: "/ready", method: .get) }
        #expect(up.status == .ok)
        #expect(try Self.decode(APIModel.Ready.self, up) == APIModel.Ready(schemaVersion: 7))
        let down = try await Self.test(ScriptedLedger(.init(schemaVersion: .failure(LedgerError(.databaseUnavailable, "down"))))) {
            try await $0.execute(uri: "/ready", method: .get)
        }
        #expect(down.status == .serviceUnavailable)
        #expect(down.headers[.retryAfter] != nil)
    }

    @Test("a known path with another method is 405 with Allow; an unknown path is a 404 problem")
    func methodsAndPaths() async throws {
        let (wrongMethod, unknown) = try await Self.test(ScriptedLedger(.init(keys: TestKeys.all))) { client in
            (try await client.execute(uri: "/v1/logs/acme/events", method: .delete, headers: Self.headers(TestKeys.admin)),
             try await client.execute(uri: "/v2/nothing", method: .get))
        }
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(wrongMethod.headers[.allow] == "GET, POST")
        #expect(unknown.status == .notFound)
        #expect(unknown.headers[.contentType] == "application/problem+json")
    }

    @Test("a body declared over the limit is 413 and nothing is appended (bodies sent in chunks: UnavailableAndLimitsTests)")
    func bodyLimit() async throws {
        let ledger = ScriptedLedger(.init(keys: TestKeys.all))
        let big = String(repeating: Self.line() + "\n", count: 10)
        let response = try await Self.test(ledger, settings: ServerSettings(maxBodyBytes: 2_048)) { client in
            try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: Self.headers(TestKeys.ingest),
                                     body: ByteBuffer(string: big))
        }
        #expect(response.status == .contentTooLarge)
        #expect(try Self.decode(APIModel.ProblemDocument.self, response).code == "body-too-large")
        #expect(ledger.idempotencyKeys.isEmpty)
    }
}
