import Foundation
import Testing

/// Half-open connections (issue 36, finding 14): clients that connect and send nothing must not
/// keep `/health`, or any new request, waiting behind them for a whole `--header-timeout`.
@Suite("consent-ledger serve: half-open connections")
struct HalfOpenConnectionTests {
    @Test("with twice as many clients that send nothing as connection slots, /health is answered; the connection that waited longest is closed for it")
    func fullOfSilentConnections() async throws {
        let db = try await TestDatabase.create()
        // Deadlines far beyond the test's bound: only making room can answer /health in time.
        let server = try ServerProcess.start(["serve", "--port", "0", "--no-projections", "--max-connections", "4",
                                              "--header-timeout", "600s", "--idle-timeout", "600s",
                                              "--database-url", try CLITests.url(db, user: "postgres")])
        defer { server.kill() }
        let port = try await server.port()
        var silent: [RawConnection] = []
        for _ in 0..<8 { silent.append(try RawConnection(port: port)) }
        let health = try RawConnection(port: port)
        health.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let (healthClosed, answer) = await health.readUntilClosed(within: FairSharing.noHang)
        #expect(answer.hasPrefix("HTTP/1.1 200"),
                "/health behind silent connections: \(answer.isEmpty ? (healthClosed ? "closed without an answer" : "no answer within \(FairSharing.noHang)") : answer)")
        let (closed, _) = await silent[0].readUntilClosed(within: FairSharing.noHang)
        #expect(closed, "the connection that waited longest was not closed")
        silent.removeAll()
    }
}
