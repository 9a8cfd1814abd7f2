import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing
import LedgerSimulation

/// The consent register of the demo story, figures worked out by hand from DemoHistory:
/// the question asked at 16:02:25 (#5) and approved by message at 18:41:03 (#6) by g_2b81d4,
/// 2 h 38 min 38 s = 9,518 s; the exception requested at 10:15:03 (#10) and approved in person at
/// 10:19:40 (#11), 277 s, the guardian not named by the app.
@Suite("Consent register report")
struct ConsentRegisterReportTests {
    @Test("a register that would look clean says why: a period with no item says when the items were asked; a period not over says so")
    func notices() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await db.as(.auditor) { client async throws in
            func codes(_ from: String, _ to: String) async throws -> (codes: [String], messages: [String]) {
                let result = try await ConsentRegisterReport.compute(.init(log: "demo", from: AsOf.date(from)!, to: AsOf.date(to)!), pool: client)
                let report = try JSONParser.parse(result.json)
                let notices = report["notices"]?.arrayValue ?? []
                return (notices.compactMap { $0["code"]?.stringValue }, notices.compactMap { $0["message"]?.stringValue })
            }
            let before = try await codes("2026-07-01T00:00:00Z", "2026-10-01T00:00:00Z")
            #expect(before.codes == ["no-items-in-period"])
            #expect(before.messages.first?.contains("its items were asked from 2026-11-20T16:02:25Z to 2026-11-21T10:15:03Z") == true)
            #expect(try await codes("2026-11-01T00:00:00Z", "2099-01-01T00:00:00Z").codes == ["period-not-over"])
            #expect(try await codes("2026-11-01T00:00:00Z", "2026-11-22T00:00:00Z").codes == [])
        }
    }

    @Test("a register or a dossier dated before its period ended, or before the newest event it reads was recorded, says so")
    func issuanceNotices() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)   // recorded today, 2026-11-29 or later
        try await db.as(.auditor) { client async throws in
            func register(issued: String?) async throws -> [String] {
                let result = try await ConsentRegisterReport.compute(
                    .init(log: "demo", from: AsOf.date("2026-11-01T00:00:00Z")!, to: AsOf.date("2026-11-22T00:00:00Z")!, dateOfIssue: issued),
                    pool: client)
                let report = try JSONParser.parse(result.json)
                #expect(report["parameters"]?["dateOfIssue"] == issued.map(JSONValue.string) ?? .null)
                return (report["notices"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
            }
            func dossier(issued: String?) async throws -> [String] {
                let result = try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, dateOfIssue: issued, pool: client)
                return (try JSONParser.parse(result.json)["notices"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
            }
            #expect(try await register(issued: "2026-11-21") == ["issued-before-period-end", "issued-before-newest-event"])
            #expect(try await register(issued: "2026-11-23") == ["issued-before-newest-event"])
            #expect(try await register(issued: "2099-01-01") == [])
            #expect(try await register(issued: nil) == [])
            #expect(try await dossier(issued: "2026-11-21") == ["issued-before-newest-event"])
            #expect(try await dossier(issued: "2099-01-01") == [])
        }
    }

    @Test("the demo story's register, row by row")
    func demoStory() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await db.as(.auditor) { client async throws in
            let result = try await ConsentRegisterReport.compute(.init(log: "demo"), pool: client)
            #expect(result.provenance.position == 11)
            #expect(result.rows.count == 2)
            let question = result.rows[0], exception = result.rows[1]
            #expect(question.kind == "question" && question.id == DemoHistory.questionId)
            #expect(question.changeId == "v3.0" && question.topic == "significantAppUpdate")
            #expect(question.askedAt == "2026-11-20T16:02:25Z" && question.sentVia == "askCenter")
            #expect(question.answer == "approval" && question.answeredAt == "2026-11-20T18:41:03Z")
            #expect(question.answeredBy == DemoHistory.guardian && question.answerChannel == "message")
            #expect(question.timeToAnswerSeconds == 9_518)
            #expect(question.evidencePositions == [5, 6])
            #expect(exception.kind == "exception" && exception.id == "ex-5521")
            #expect(exception.ratedApp == 6_471_234_567 && exception.ratedAge == "16+")
            #expect(exception.answer == "approval" && exception.answerChannel == "inPerson")
            #expect(exception.answeredBy == "not disclosed by platform")
            #expect(exception.timeToAnswerSeconds == 277)
            #expect(exception.evidencePositions == [10, 11])
            let csv = ConsentRegisterReport.csv(result.rows)
            #expect(csv.hasPrefix(ConsentRegisterReport.columns.joined(separator: ",") + "\r\n"))
            #expect(csv.components(separatedBy: "\r\n").count == 4)  // header, two rows, and the empty tail
        }
    }

    @Test("the same inputs give the same bytes, and the seal checks")
    func reproducible() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await db.as(.auditor) { client async throws in
            let first = try await ConsentRegisterReport.compute(.init(log: "demo"), pool: client)
            let second = try await ConsentRegisterReport.compute(.init(log: "demo"), pool: client)
            #expect(first.json == second.json)
            #expect(ReportSeal.verify(try JSONParser.parse(first.json)))
        }
    }

    @Test("a register as of an earlier position ignores later events, and later appends do not change it")
    func asOfEarlierPosition() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        let atFive = try await db.as(.auditor) { client async throws in
            let atFive = try await ConsentRegisterReport.compute(.init(log: "demo", asOf: 5), pool: client)
            #expect(atFive.rows.count == 1)
            #expect(atFive.rows[0].answer == "pending" && atFive.rows[0].answeredBy == nil)
            let atSix = try await ConsentRegisterReport.compute(.init(log: "demo", asOf: 6), pool: client)
            #expect(atSix.rows.map(\.answer) == ["approval"])
            await #expect { try await ConsentRegisterReport.compute(.init(log: "demo", asOf: 99), pool: client) } throws: { error in
                (error as? LedgerError)?.code == .invalidRequest && "\(error)".contains("its head is 11")
            }
            return atFive.json
        }
        try await ProjectionTestSupport.appendSimulated(db, log: "demo", families: 3, days: 3, seed: 61)
        try await db.as(.auditor) { client async throws in
            #expect(try await ConsentRegisterReport.compute(.init(log: "demo", asOf: 5), pool: client).json == atFive)
        }
    }
}
