import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing
import LedgerSimulation

@Suite("Subject dossier report")
struct SubjectDossierReportTests {
    @Test("the teen's dossier: every event of theirs in order, sealed, the same bytes twice, stopping at --as-of")
    func demoStoryDossier() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await db.as(.auditor) { client async throws in
            let whole = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client)
            #expect(whole.steps.map(\.position) == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11])
            #expect(whole.steps.map(\.type).prefix(3) == ["EligibilityChecked", "AgeRangeRequested", "AgeRangeShared"])
            #expect(whole.steps[5].state?.features.first?.state == "open")  // after #7
            #expect(ReportSeal.verify(try JSONParser.parse(whole.json)))
            let again = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client)
            #expect(again.json == whole.json)
            let early = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, asOf: 6, pool: client)
            #expect(early.steps.map(\.position) == [1, 2, 3, 5, 6])
            #expect(early.provenance.position == 6)
            let csv = SubjectDossierReport.csv(whole.steps)
            #expect(csv.hasPrefix(SubjectDossierReport.columns.joined(separator: ",") + "\r\n"))
            // No payloads: nothing of a sealed personal field can appear.
            #expect(!String(decoding: whole.json, as: UTF8.self).contains("\"payload\""))
        }
    }
}
