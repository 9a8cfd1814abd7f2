import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing
import LedgerSimulation

/// Which significant change a question asks about is resolved once (`ChangeDirectory`, decisions
/// 0021 and 0061), and every projection that keeps it
/// reads that one answer, whatever the ranges the log was folded in.
@Suite("A question's change, resolved once")
struct QuestionChangeTests {
    static let description = "Version 3.0 adds drawing together with friends in shared rooms."
    static let redeclared = "Version 3.0, declared again with other words."
    static let again = "7c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", original = "8c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318"

    /// The demo story (its question names no change: v3.0 by its description), then change v3.0
    /// declared a second time with other words (#12), a question carrying those words (#13), and a
    /// question carrying the first words (#14).
    static func append(_ db: TestDatabase) async throws {
        try await DemoStoryProjectionTests.appendStory(db)
        let declaration = DemoHistory.lines[3], question = DemoHistory.lines[4]
        #expect(declaration.contains("SignificantChangeDeclared") && question.contains("PermissionQuestionSent"))
        let lines = [
            declaration.replacingOccurrences(of: "9f0a1b2c3d04", with: "9f0a1b2c3d94")
                .replacingOccurrences(of: description, with: redeclared),
            question.replacingOccurrences(of: "9f0a1b2c3d05", with: "9f0a1b2c3d95")
                .replacingOccurrences(of: DemoHistory.questionId, with: again)
                .replacingOccurrences(of: description, with: redeclared),
            question.replacingOccurrences(of: "9f0a1b2c3d05", with: "9f0a1b2c3d96")
                .replacingOccurrences(of: DemoHistory.questionId, with: original),
        ]
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "demo", events: lines.map { try EventInput(line: Array($0.utf8)) })
        }
    }

    /// The change each projection holds for `question` ("-" for none, "absent" for no row).
    static func changes(of question: String, client: LedgerPool) async throws -> [String] {
        let queries: [PostgresQuery] = [
            "SELECT coalesce(change_id, '-') FROM consent_register.entries WHERE kind = 'question' AND item_id = \(question)",
            "SELECT coalesce(change_id, '-') FROM significant_changes.questions WHERE question_id = \(question)",
            "SELECT coalesce(change_id, '-') FROM anomalies.questions WHERE question_id = \(question)",
            "SELECT coalesce(change_id, '-') FROM report_facts.facts WHERE type = 'PermissionQuestionSent' AND ref = \(question)",
        ]
        var found: [String] = []
        for query in queries {
            var value = "absent"
            for try await text in try await client.query(query).decode(String.self) { value = text }
            found.append(value)
        }
        return found
    }

    @Test("folded one event at a time, every projection links each question to the same change, as time travel does")
    func sameEverywhere() async throws {
        let db = try await TestDatabase.create()
        try await Self.append(db)
        let names: [ProjectionDefinition.Name] = [.consentRegister, .significantChanges, .anomalies, .reportFacts]
        try await db.as(.administrator) { client async throws in
            for name in names {
                let projection = ProjectionDefinition.named(name)
                try await ProjectionTestSupport.installEmpty(projection, client: client)
                #expect(try await ProjectionRunner(pool: client, chunkSize: 1).catchUp(projection, log: "demo").folded > 0)
                expectSameRows(try await ProjectionRows.live(projection, pool: client),
                               try await TimeTravel(pool: client).rows(log: "demo", projection: projection, asOf: .head), name.rawValue)
            }
            // By its description, declared before it for its app.
            #expect(try await Self.changes(of: DemoHistory.questionId, client: client) == ["v3.0", "v3.0", "v3.0", "v3.0"])
            #expect(try await Self.changes(of: Self.original, client: client) == ["v3.0", "v3.0", "v3.0", "v3.0"])
            // A change is taken as first declared: words of a second declaration of v3.0 link to nothing
            // (significant_changes keeps only questions about a change).
            #expect(try await Self.changes(of: Self.again, client: client) == ["-", "absent", "-", "-"])
        }
    }
}
