import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerApplication
import LedgerCore
import LedgerPostgres
import Testing

/// Every answer that carries a subject's data is entered in the record of reads before it is sent
/// (issue 36, finding 5): a subject's stream of events, the whole log, an entry bundle, an inclusion
/// proof found by event id, and the unfiltered register all answered without a row before.
@Suite("Every route that returns subjects' data records the read")
struct ReadRecordingRouteTests {
    @Test("events of a subject's stream, the whole log, an entry bundle, an inclusion proof and the whole register each write their row")
    func recorded() async throws {
        let (fixture, _, _, _) = try await VerifiableLogRouteTests.signedLog()
        let (subject, eventId) = try await fixture.db.as(.auditor) { client in
            var found = ("", "")
            for try await row in try await client.query(
                "SELECT subject, event_id::text FROM ledger.events WHERE log_id = 'acme' AND subject IS NOT NULL ORDER BY position LIMIT 1")
                .decode((String, String).self) { found = row }
            return found
        }
        #expect(!subject.isEmpty)
        let auditorID = String(fixture.tokens["auditor"]!.split(separator: "_")[1])
        let asked = [("/v1/logs/acme/events?stream=subject-\(subject)", "events \(subject)"),
                     ("/v1/logs/acme/events?limit=5", "events *"),
                     ("/v1/logs/acme/tile/entries/000", "tile entries *"),
                     ("/v1/logs/acme/proofs/inclusion?eventId=\(eventId)", "inclusion proof \(subject)"),
                     ("/v1/logs/acme/reports/consent-register", "consent-register *")]
        try await fixture.test { client in
            for (uri, _) in asked {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers("auditor"))
                #expect(response.status == .ok, "\(uri): \(response.text.prefix(200))")
            }
        }
        let rows = try await fixture.db.as(.auditor) { client in
            var rows: [String] = []
            for try await (reader, what, subject) in try await client.query(
                "SELECT reader, what, subject FROM ledger.read_audit WHERE log_id = 'acme' ORDER BY seq").decode((String, String, String).self) {
                rows.append("\(reader) \(what) \(subject)")
            }
            return rows
        }
        #expect(rows == asked.map { "\(auditorID) \($0.1)" }, "one row per answer, in order, naming the key")
    }
}
