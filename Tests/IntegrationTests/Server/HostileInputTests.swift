import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import NIOCore
import Testing

/// Hostile bodies over HTTP (issue 17): deeply nested JSON, huge numbers, invalid UTF-8, lone
/// surrogates, a byte-order mark, CRLF line ends. Each is answered with a 4xx problem document that
/// says what is wrong (never a 500, never a crash or a hang), stores nothing, and leaves the server
/// serving. Slow and truncated requests are RequestTimeoutTests'.
@Suite("HTTP API: hostile input")
struct HostileInputTests {
    /// A valid event line with `text` spliced in as the value of the payload's `lowerBound`.
    static func event(lowerBound text: String) -> String {
        Fixtures.line(payload: #"{"lowerBound":\#(text),"upperBound":15}"#)
    }

    /// (name, body bytes) of bodies every JSON-reading route must refuse.
    static let bodies: [(String, [UInt8])] = [
        ("100,000 nested arrays", Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
        ("100,000 nested objects", Array((String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)).utf8)),
        ("a number of 100,000 digits", Array(event(lowerBound: String(repeating: "9", count: 100_000)).utf8)),
        ("a number with an exponent of a million", Array(event(lowerBound: "1e1000000").utf8)),
        ("a negative zero with a huge exponent", Array(event(lowerBound: "-0e-999999999").utf8)),
        ("invalid UTF-8 in a string", Array(Fixtures.line(stream: "subject-p_1").utf8).replacing(Array("subject-p_1".utf8), with: [0x73, 0xFF, 0xFE, 0x31])),
        ("a lone high surrogate", Array(Fixtures.line(payload: #"{"lowerBound":13,"upperBound":15,"note":"\ud800"}"#).utf8)),
        ("a lone low surrogate in a key", Array(Fixtures.line(payload: #"{"\udc00":1}"#).utf8)),
        ("a byte-order mark before the event", [0xEF, 0xBB, 0xBF] + Array(Fixtures.line().utf8)),
        ("a NUL byte", Array(Fixtures.line().utf8).prefix(20) + [0x00] + Array(Fixtures.line().utf8).dropFirst(20)),
        ("half an event", Array(Fixtures.line().utf8.prefix(60))),
    ]

    @Test("every hostile body is a 4xx problem that stores nothing, and the server keeps serving")
    func hostileBodies() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(live: true) { client in
            // The App Store route answers 501 before it reads a body on a server with no App Store root
            // certificate (this one), so its parser is the JWS fuzz target's, not this test's.
            let routes = ["/v1/logs/acme/events", "/v1/logs/acme/subjects/p_1/erase"]
            for (name, body) in Self.bodies {
                for route in routes {
                    let response = try await client.execute(uri: route, method: .post,
                                                            headers: fixture.headers("admin", [.contentType: "application/x-ndjson"]),
                                                            body: ByteBuffer(bytes: body))
                    #expect((400...499).contains(response.status.code), "\(name) to \(route): \(response.status) \(response.text.prefix(300))")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(name) to \(route)")
                    let detail = response.json?["detail"]?.stringValue ?? ""
                    #expect(!detail.isEmpty, "\(name) to \(route): no detail in \(response.text.prefix(300))")
                }
            }
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            let stored = try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: fixture.headers("auditor"))
            // Nothing stored, not even the log: reading it is "no such log".
            #expect(stored.status == .notFound, "a refused body stored something: \(stored.status) \(stored.text.prefix(300))")
        }
    }

    @Test("NDJSON with CRLF line ends is read as NDJSON with LF ones: one event per line, nothing else in the records")
    func crlfLineEnds() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let body = (0..<3).map { Fixtures.line(stream: "subject-p_\($0)") }.joined(separator: "\r\n") + "\r\n"
            let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post,
                                                    headers: fixture.headers("ingest"), body: ByteBuffer(string: body))
            #expect(response.status == .created, "\(response.text)")
            #expect(response.json?["lastPosition"] == 3)
            let read = try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: fixture.headers("auditor"))
            #expect(!read.text.contains("\\r") && read.text.split(separator: "\n").count == 3)
        }
    }
}

private extension Array where Element == UInt8 {
    /// The bytes with the first occurrence of `old` replaced by `new`.
    func replacing(_ old: [UInt8], with new: [UInt8]) -> [UInt8] {
        guard let start = indices.first(where: { self[$0...].starts(with: old) }) else { return self }
        return Array(self[..<start]) + new + Array(self[(start + old.count)...])
    }
}
