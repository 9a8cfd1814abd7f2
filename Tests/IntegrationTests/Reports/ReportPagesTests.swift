import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Testing
import LedgerReportHTML
import LedgerSimulation

/// The consent register and the dossier of the demo story as HTML pages: the hand-checked figures
/// of ConsentRegisterReportTests (9,518 s and 277 s to answer, the guardian not disclosed for the
/// exception) and the story's steps, each with its evidence.
@Suite("Report pages of the demo story")
struct ReportPagesTests {
    @Test("the consent register page shows both items, their answers, times and evidence, and its seal")
    func registerPage() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        let result = try await db.as(.auditor) { client async throws in
            try await ConsentRegisterReport.compute(.init(log: "demo"), pool: client)
        }
        let page = try ReportHTML.render(try JSONParser.parse(result.json))
        let text = page.replacingOccurrences(of: "<wbr>", with: "")
        #expect(text.contains(result.sha256) && text.contains(DemoHistory.questionId) && text.contains("ex-5521"))
        #expect(text.contains(DemoHistory.guardian) && text.contains("guardian not disclosed"))
        #expect(text.contains("after 2 h 38 min") && text.contains("after 4 min 37 s"))  // 9,518 s and 277 s
        let positions = result.rows.flatMap(\.evidencePositions)
        #expect(!positions.isEmpty)
        for position in positions { #expect(text.contains("<span class=\"pos\">#\(position)</span>")) }
        #expect(page.components(separatedBy: "<svg").count - 1 == 2)  // outcomes per week, time to answer
        #expect(page == (try ReportHTML.render(try JSONParser.parse(result.json))))
    }

    @Test("the dossier page tells the story step by step, with each event's position and id")
    func dossierPage() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        let result = try await db.as(.auditor) { client async throws in
            try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client)
        }
        let page = try ReportHTML.render(try JSONParser.parse(result.json))
        let text = page.replacingOccurrences(of: "<wbr>", with: "")
        for step in result.steps {
            #expect(text.contains(step.eventId))
            #expect(text.contains(HTMLText.escape(step.sentence)), "\(step.position)")
        }
        #expect(text.contains(result.sha256) && !text.contains("\"payload\""))
    }
}

/// HTML escaping as the renderer does it, to find a sentence in a page.
enum HTMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
