import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// Issue 36, finding 4, over HTTP on a real database: an ingest (or admin) key may not append the
/// ledger's own facts, nor a rescission recorded as the App Store without a signed notification
/// (decision 0056). Each is a 403 problem naming the way to do it, and nothing is stored.
@Suite("HTTP API who may append each type")
struct AppendPermissionRouteTests {
    static let forgedRescission = AppendPermissionTests.line(
        "ConsentRescinded", actor: "appStore",
        payload: #"{"bundleId":"com.example.kidsdraw","enforcementAction":"accessRevoked","environment":"Production","notificationUUID":"\#(UUID().uuidString.lowercased())","signatureCheck":"valid","signedDate":1795000000000}"#)

    @Test("SubjectErased, a backdated RetentionApplied and a ConsentRescinded claiming the App Store are 403 append-not-permitted; nothing is stored",
          arguments: [("ingest", AppendPermissionTests.subjectErased), ("ingest", AppendPermissionTests.retentionApplied),
                      ("ingest", forgedRescission), ("admin", AppendPermissionTests.subjectErased)])
    func refused(role: String, event: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            // Alone (the group commit) and in a batch behind an ordinary event.
            let ordinary = AppendPermissionTests.line("AgeRangeShared", actor: "app",
                                                      payload: #"{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15}"#)
            for (body, line) in [(event, 1), (ordinary + "\n" + event, 2)] {
                let response = try await client.execute(uri: "/v1/logs/acme/events", method: .post, headers: fixture.headers(role),
                                                        body: ByteBuffer(string: body))
                #expect(response.status == .forbidden, "\(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json?["type"] == "https://consent-ledger.dev/problems/append-not-permitted", "\(response.text)")
                #expect(response.json?["line"]?.intValue == line)
                let detail = response.json?["detail"]?.stringValue ?? ""
                if event.contains("SubjectErased") { #expect(detail.contains("recorded by the ledger itself: use `consent-ledger erase`"), "\(detail)") }
                if event.contains("ConsentRescinded") { #expect(detail.contains("app-store/notifications"), "\(detail)") }
            }
        }
        try await fixture.db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }
}
