import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// One key has a bounded number of reads under way (issue 36, finding 13; decision 0055). A live
/// server, raw sockets that stop reading, the real database.
@Suite("HTTP API: reads under way per key")
struct ReadsPerKeyTests {
    @Test("a key with its reads under way is refused more with 429 and Retry-After; another key is served; the share comes back when a stream ends")
    func readsPerKeyBounded() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await FairSharing.fill(fixture)
        var settings = ServerSettings()
        settings.maxReadsPerKey = 2
        try await fixture.test(settings: settings, live: true) { client, _ in
            let port = try #require(client.port)
            var stalled: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: port, receiveBuffer: 4096)
                connection.send(FairSharing.get("/v1/logs/acme/events", token: fixture.tokens["auditor"]!))
                #expect(await connection.readHead(within: FairSharing.noHang).hasPrefix("HTTP/1.1 200"))
                stalled.append(connection)
            }
            let third = try RawConnection(port: port)
            third.send(FairSharing.get("/v1/logs/acme/events?limit=1", token: fixture.tokens["auditor"]!))
            let refused = await third.readHead(within: FairSharing.noHang)
            #expect(refused.hasPrefix("HTTP/1.1 429"), "a third read of the same key: \(refused)")
            #expect(refused.lowercased().contains("retry-after: "), "\(refused)")
            let otherKey = try RawConnection(port: port)
            otherKey.send(FairSharing.get("/v1/logs/acme/events?limit=1", token: fixture.tokens["admin"]!))
            #expect(await otherKey.readHead(within: FairSharing.noHang).hasPrefix("HTTP/1.1 200"), "another key is not refused")
            // A stream whose client reads it to the end gives its share back.
            _ = await stalled[0].readUntilClosed(within: FairSharing.noHang)
            let again = try RawConnection(port: port)
            again.send(FairSharing.get("/v1/logs/acme/events?limit=1", token: fixture.tokens["auditor"]!))
            #expect(await again.readHead(within: FairSharing.noHang).hasPrefix("HTTP/1.1 200"), "the key's share did not come back")
            stalled.removeAll()
        }
    }
}
