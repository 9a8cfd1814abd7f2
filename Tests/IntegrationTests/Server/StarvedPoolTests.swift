import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import Testing

/// A request never waits without bound for a busy pool, and `/ready` says when a pool is starved
/// (issue 36, finding 1; decision 0055). A live server, raw sockets, the real database.
@Suite("HTTP API: a starved pool answers 503")
struct StarvedPoolTests {
    @Test("with every auditor connection held, a read is 503 database-busy with Retry-After and /ready is 503 naming the pool; both recover")
    func starvedPoolAnswers503() async throws {
        let fixture = try await ServerFixture.make()
        var settings = ServerSettings()
        settings.databaseWaitLimit = .milliseconds(500)
        settings.databaseBusyLimit = .seconds(1)
        try await fixture.test(settings: settings, live: true) { client, pools in
            let port = try #require(client.port)
            let hog = try await PoolHog.take(pools.auditor, connections: ConnectionSettings.stagingPoolSize)
            let read = try RawConnection(port: port)
            read.send(FairSharing.get("/v1/logs/acme/events", token: fixture.tokens["auditor"]!))
            let (_, answer) = await read.readUntilClosed(within: FairSharing.noHang)
            #expect(answer.hasPrefix("HTTP/1.1 503"), "a read on a starved pool: \(answer.isEmpty ? "no answer" : answer)")
            #expect(answer.lowercased().contains("retry-after: "), "\(answer)")
            #expect(answer.contains("/database-busy"), "\(answer)")
            let ready = try RawConnection(port: port)
            ready.send(FairSharing.get("/ready", token: nil))
            let (_, readiness) = await ready.readUntilClosed(within: FairSharing.noHang)
            #expect(readiness.hasPrefix("HTTP/1.1 503"), "/ready on a starved pool: \(readiness.isEmpty ? "no answer" : readiness)")
            #expect(readiness.contains("consent_ledger_auditor"), "/ready names the starved pool: \(readiness)")
            hog.release()
            let recovered = try RawConnection(port: port)
            recovered.send(FairSharing.get("/ready", token: nil))
            #expect(await recovered.readHead(within: FairSharing.noHang).hasPrefix("HTTP/1.1 200"))
        }
    }
}
