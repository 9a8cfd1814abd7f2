import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing
import LedgerSimulation

/// The demo's story (DemoHistory: one teen, one app, one question, one exception), small enough
/// to write every expected figure down by hand before running the code.
@Suite("Projections of the demo story, checked by hand")
struct DemoStoryProjectionTests {
    static func appendStory(_ db: TestDatabase, log: String = "demo") async throws {
        let events = try DemoHistory.lines.map { try EventInput(line: Array($0.utf8)) }
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: log, events: events)
        }
    }

    @Test("the read models hold what the eleven events say")
    func readModels() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendStory(db)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let s = DemoHistory.subject
            // The guardian declared 13-15 at position 3, with approval of significant changes required.
            let age = try await client.query("""
                SELECT age_category, age_lower, age_upper, age_declaration, age_position, parental_controls
                  FROM subject_state.subjects WHERE subject = \(s)
                """).decode((String, Int, Int, String, Int64, [String]).self)
            var ages = 0
            for try await (category, lower, upper, declaration, position, controls) in age {
                #expect(category == "13to15" && lower == 13 && upper == 15 && declaration == "guardianDeclared")
                #expect(position == 3)
                #expect(controls == ["significantAppChangeApprovalRequired"])
                ages += 1
            }
            #expect(ages == 1)
            // sharedRooms opened at position 7 citing the range (#3) and the answer (#6).
            #expect(try await client.int("""
                SELECT position FROM subject_state.features WHERE subject = \(s) AND feature = 'sharedRooms' AND state = 'open'
                """) == 7)
            // The question: asked at #5 via askCenter about change v3.0 (linked by its description),
            // approved by message at #6 by the guardian; the exception: requested at #10, approved in person at #11.
            let entries = try await client.query("""
                SELECT kind, coalesce(change_id, ''), status, coalesce(answered_by, ''), answer_channel, evidence_positions
                  FROM consent_register.entries WHERE subject = \(s) ORDER BY kind
                """).decode((String, String, String, String, String, [Int64]).self)
            var rows: [String] = []
            for try await (kind, change, status, by, channel, evidence) in entries {
                rows.append("\(kind) \(change) \(status) \(by) \(channel) \(evidence)")
            }
            #expect(rows == ["exception  approval  inPerson [10, 11]",
                             "question v3.0 approval \(DemoHistory.guardian) message [5, 6]"])
            #expect(try await client.int("SELECT count(*) FROM pending.open_items") == 0)
            #expect(try await client.int("SELECT asked FROM significant_changes.summary WHERE change_id = 'v3.0'") == 1)
            #expect(try await client.int("SELECT approved FROM significant_changes.summary WHERE change_id = 'v3.0'") == 1)
            // The gate cites an approval of the change in force: no violation.
            #expect(try await client.int("SELECT count(*) FROM anomalies.violations") == 0)
        }
    }

    @Test("replaying the teen ends in the live state, with the question linked to its change throughout")
    func replayMatchesLive() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendStory(db)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let history = try await SubjectReplay(pool: client).replay(log: "demo", subject: DemoHistory.subject)
            #expect(history.steps.map(\.event.position) == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11])
            let live = try await SubjectSnapshot.live(log: "demo", subject: DemoHistory.subject, pool: client)
            #expect(CanonicalJSON.encodeString(history.steps.last!.state) == CanonicalJSON.encodeString(try JSONParser.parse(live[0])))
            let afterQuestion = try #require(history.steps.first { $0.event.position == 5 })
            #expect(afterQuestion.state["consents"]?.arrayValue?.first?["changeId"]?.stringValue == "v3.0")
        }
    }
}
