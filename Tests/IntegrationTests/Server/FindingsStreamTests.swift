import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import Testing

/// `GET /v1/logs/{log}/findings/stream` (issue 42, decision 0081): server-sent events from a live
/// server over a raw socket, as an auditor's client reads them.
@Suite("HTTP API: the findings stream")
struct FindingsStreamTests {
    /// A bound for a test that must not hang, never a speed check.
    static let noHang: Duration = .seconds(60)

    /// `GET path` with the bearer token and any `extra` header lines.
    static func get(_ path: String, token: String, extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\(extra)\r\n"
    }

    /// The events in what a stream sent (its chunked body, after the head): each `(id, data)`.
    static func events(_ received: String) -> [(id: String, data: String)] {
        guard let split = received.range(of: "\r\n\r\n") else { return [] }
        let body = String(decoding: FairSharing.dechunked(String(received[split.upperBound...])), as: UTF8.self)
        return body.components(separatedBy: "\n\n").compactMap { block in
            var id: String?, data: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard let id, let data else { return nil }
            return (id, data)
        }
    }

    @Test("an auditor gets every finding, then each new one as it is folded; Last-Event-ID goes on after the last one; another log's findings never come")
    func streamsAndResumes() async throws {
        let fixture = try await ServerFixture.make()
        try await FindingsFeedTests.append(fixture.db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.append(fixture.db, log: "other", AnomalyTests.firstBatch)
        try await FindingsFeedTests.append(fixture.db, log: "other", AnomalyTests.laterBatch)
        try await FindingsFeedTests.fold(fixture.db)
        let token = try #require(fixture.tokens["auditor"])
        try await fixture.test(live: true) { client, _ in
            let port = try #require(client.port)
            let stream = try RawConnection(port: port)
            stream.send(Self.get("/v1/logs/acme/findings/stream", token: token))
            var received = await stream.readUntil(within: Self.noHang) { Self.events($0).count >= 2 }
            #expect(received.hasPrefix("HTTP/1.1 200"), "\(received.prefix(300))")
            #expect(received.lowercased().contains("content-type: text/event-stream"), "\(received.prefix(300))")
            #expect(Self.events(received).map(\.id) == ["2.answer-after-expiry", "3.answer-before-question"])
            // New findings come on the open stream once they are folded (the server here has no
            // fold listener: its streams read again every two seconds).
            try await FindingsFeedTests.append(fixture.db, AnomalyTests.laterBatch)
            try await FindingsFeedTests.fold(fixture.db)
            received = await stream.readUntil(within: Self.noHang) { Self.events($0).count >= 4 }
            let events = Self.events(received)
            #expect(events.map(\.id) == ["2.answer-after-expiry", "3.answer-before-question",
                                         "8.exception-decided-twice", "9.decision-without-request"])
            let validator = try OpenAPIContractTests.validator(try OpenAPIContractTests.document())
            for event in events {
                let item = try JSONParser.parse(Array(event.data.utf8))
                #expect(try validator.violations(of: item, against: "#/$defs/FindingsFeedItem") == [], "\(event.data)")
                #expect(item["log"]?.stringValue == "acme" && item["id"]?.stringValue == event.id, "\(event.data)")
            }
            // A client that comes back with the last id it got goes on after it.
            let again = try RawConnection(port: port)
            again.send(Self.get("/v1/logs/acme/findings/stream", token: token, extra: "Last-Event-ID: 3.answer-before-question\r\n"))
            let resumed = await again.readUntil(within: Self.noHang) { Self.events($0).count >= 2 }
            #expect(Self.events(resumed).map(\.id) == ["8.exception-decided-twice", "9.decision-without-request"])
            // Only violations, from the start.
            let violations = try RawConnection(port: port)
            violations.send(Self.get("/v1/logs/acme/findings/stream?kind=violation", token: token))
            let onlyViolations = await violations.readUntil(within: Self.noHang) { Self.events($0).count >= 1 }
            #expect(Self.events(onlyViolations).map(\.id) == ["3.answer-before-question"])
        }
    }

    @Test("refused before the stream opens: no key, an ingest key, another log's key, a bad Last-Event-ID, after or kind")
    func refusals() async throws {
        let fixture = try await ServerFixture.make()
        try await FindingsFeedTests.append(fixture.db, AnomalyTests.firstBatch)
        try await FindingsFeedTests.fold(fixture.db)
        try await fixture.test { client in
            let path = "/v1/logs/acme/findings/stream"
            #expect(try await client.execute(uri: path, method: .get, headers: fixture.headers(nil)).status == .unauthorized)
            #expect(try await client.execute(uri: path, method: .get, headers: fixture.headers("ingest")).status == .forbidden)
            #expect(try await client.execute(uri: path, method: .get, headers: fixture.headers("otherIngest")).status == .forbidden)
            let badID = try await client.execute(uri: path, method: .get,
                                                 headers: fixture.headers("auditor", [HTTPField.Name("Last-Event-ID")!: "3.Not A Rule"]))
            #expect(badID.status == .badRequest && badID.json?["field"]?.stringValue == "Last-Event-ID", "\(badID.text)")
            let badAfter = try await client.execute(uri: path + "?after=x", method: .get, headers: fixture.headers("auditor"))
            #expect(badAfter.status == .badRequest && badAfter.text.contains("<position>.<rule>"), "\(badAfter.text)")
            let badKind = try await client.execute(uri: path + "?kind=all", method: .get, headers: fixture.headers("auditor"))
            #expect(badKind.status == .badRequest && badKind.json?["field"]?.stringValue == "kind", "\(badKind.text)")
        }
    }
}
