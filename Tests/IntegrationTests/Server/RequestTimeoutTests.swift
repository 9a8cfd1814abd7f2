import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerServer
import Testing

/// Slow and truncated requests on a real socket (issue 17): the server closes them after its
/// configured bounds and keeps serving everyone else. The bounds here are 1 s; the tests wait up
/// to 20 s for the close, so they check that it happens, never how fast.
@Suite("HTTP API: request timeouts")
struct RequestTimeoutTests {
    static let short = RequestTimeouts(header: .seconds(1), body: .seconds(1), idle: .seconds(1))
    static let patience: Duration = .seconds(20)

    static var settings: ServerSettings {
        var settings = ServerSettings()
        settings.timeouts = short
        return settings
    }

    /// A complete request on a fresh connection of its own: the server still serves.
    static func healthAnswered(port: Int) async throws -> Bool {
        let connection = try RawConnection(port: port)
        connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let (closed, received) = await connection.readUntilClosed(within: patience)
        return closed && received.hasPrefix("HTTP/1.1 200")
    }

    @Test("half a request head, then silence: the connection is closed, and another connection is served meanwhile")
    func halfHead() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(settings: Self.settings, live: true) { client in
            let port = try #require(client.port)
            let stalled = try RawConnection(port: port)
            stalled.send("POST /v1/logs/acme/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bear")
            #expect(try await Self.healthAnswered(port: port), "a normal request while another connection stalls")
            let (closed, received) = await stalled.readUntilClosed(within: Self.patience)
            #expect(closed, "a half-sent head kept its connection open for \(Self.patience) with a 1 s --header-timeout")
            #expect(!received.contains(" 500 "), "\(received)")
            #expect(try await Self.healthAnswered(port: port), "the server still serves after closing the stalled connection")
        }
    }

    @Test("a head trickled a byte at a time is closed: the bound is on the whole head, not between bytes")
    func trickledHead() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(settings: Self.settings, live: true) { client in
            let port = try #require(client.port)
            let trickler = try RawConnection(port: port)
            // 200 bytes, 100 ms apart: 20 s if the server never closes; every gap is well inside 1 s.
            let head = "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + String(repeating: "a", count: 160) + "\r\n\r\n"
            let closedEarly = await trickler.trickle(head, pause: .milliseconds(100))
            let (closed, received) = await trickler.readUntilClosed(within: .seconds(2))
            #expect(closedEarly || (closed && received.isEmpty),
                    "a head trickled over 20 s was read whole with a 1 s --header-timeout: \(received.prefix(40))")
        }
    }

    @Test("a body shorter than its Content-Length is closed, not answered 500, and others are served meanwhile")
    func truncatedBody() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(settings: Self.settings, live: true) { client in
            let port = try #require(client.port)
            let stalled = try RawConnection(port: port)
            let body = Fixtures.line()
            stalled.send("POST /v1/logs/acme/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(fixture.tokens["ingest"]!)\r\n"
                         + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count + 1000)\r\n\r\n\(body)")
            #expect(try await Self.healthAnswered(port: port), "a normal request while a body stalls")
            let (closed, received) = await stalled.readUntilClosed(within: Self.patience)
            #expect(closed, "a body 1000 bytes short of its Content-Length kept its connection open for \(Self.patience) with a 1 s --body-timeout")
            #expect(!received.contains(" 500 "), "\(received)")
            #expect(try await Self.healthAnswered(port: port), "the server still serves after closing the stalled connection")
        }
        try await fixture.db.as(.auditor) { pool async throws in
            #expect(try await pool.int("SELECT count(*) FROM ledger.events") == 0, "nothing of the truncated body was stored")
        }
    }

    @Test("a kept-alive connection with no next request is closed after --idle-timeout")
    func idleKeepAlive() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(settings: Self.settings, live: true) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let (closed, received) = await connection.readUntilClosed(within: Self.patience)
            #expect(received.hasPrefix("HTTP/1.1 200"), "\(received)")
            #expect(closed, "an idle kept-alive connection stayed open for \(Self.patience) with a 1 s --idle-timeout")
        }
    }
}
