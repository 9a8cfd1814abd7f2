import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// A client that stops reading a stream holds no database connection (issue 36, finding 1;
/// decision 0055). A live server, raw sockets that stop reading, the real database.
@Suite("HTTP API: stalled streams hold no connection")
struct StalledStreamTests {
    @Test("eight clients that stop reading GET …/events hold no pool connection: another tenant's reads are answered, the streams resume whole")
    func stalledStreamsGiveBackTheirConnections() async throws {
        let fixture = try await ServerFixture.make()
        let otherAuditor = try await FairSharing.fill(fixture)
        // More than the 8 streams of one key: this test is about the pool, ReadsPerKeyTests about the key.
        var settings = ServerSettings()
        settings.maxReadsPerKey = 64
        try await fixture.test(settings: settings, live: true) { client, _ in
            let port = try #require(client.port)
            // More stalled streams than the auditor pool has connections (6).
            var stalled: [RawConnection] = []
            for _ in 0..<8 {
                let connection = try RawConnection(port: port, receiveBuffer: 4096)
                connection.send(FairSharing.get("/v1/logs/acme/events", token: fixture.tokens["auditor"]!))
                let head = await connection.readHead(within: FairSharing.noHang)
                #expect(head.hasPrefix("HTTP/1.1 200"), "stream \(stalled.count + 1) got no answer: \(head)")
                stalled.append(connection)
            }
            // Another tenant's auditor, on the same pool, while all eight are stalled.
            for path in ["/v1/logs/other/events?stream=subject-p_0", "/v1/logs/other/events", "/ready"] {
                let other = try RawConnection(port: port)
                other.send(FairSharing.get(path, token: otherAuditor))
                let head = await other.readHead(within: FairSharing.noHang)
                #expect(head.hasPrefix("HTTP/1.1 200"), "\(path) while streams stall: \(head.isEmpty ? "no answer" : head)")
            }
            // A stalled stream, read again, is whole: every event once, in order.
            let (closed, received) = await stalled[0].readUntilClosed(within: FairSharing.noHang)
            #expect(closed)
            let lines = FairSharing.dechunked(received).split(separator: UInt8(ascii: "\n"))
            #expect(lines.count == FairSharing.bigLog)
            let positions = lines.compactMap { line -> Int64? in
                guard let value = try? JSONParser.parse(Array(line)) else { return nil }
                return value["position"]?.intValue.map(Int64.init)
            }
            #expect(positions == Array(1...Int64(FairSharing.bigLog)), "positions out of order or repeated")
            stalled.removeAll()
        }
    }
}
