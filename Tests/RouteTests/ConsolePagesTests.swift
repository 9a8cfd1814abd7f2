import Foundation
@testable import LedgerConsole
import LedgerCore
import LedgerPostgres
import Testing

/// The console's pages in words (issue 39): a subject's state in sections with the reports' labels,
/// a pseudonym not found answered for a browser user, explanations without raw ids or "..", the
/// report form's preset periods, the register's times on one line. Rendered without a server; the
/// pages in a browser are tools/console-check.
@Suite("The console's pages speak in words")
struct ConsolePagesTests {
    static let key = APIKey(keyID: "abcdefabcdef", log: "acme", role: .auditor, label: "test", createdAt: "2026-11-26T00:00:00Z")

    static let state = try! JSONParser.parse(#"""
        {"subject":"p_0123456789abcdef0123456789abcdef","age":{"category":"13to15","lower":13,"upper":15,
         "declaration":"guardianDeclared","verifiedAdult":false,"source":"AgeRangeShared","position":12,"eventId":"x"},
         "parentalControls":["significantAppChangeApprovalRequired"],"erased":false,
         "signals":[{"platform":"android","outcome":"SUPERVISED_APPROVAL_PENDING","category":"13to15","position":14}],
         "features":[{"app":"com.example.game","feature":"directMessages","state":"open","policyVersion":"p1","basis":[],"position":20}],
         "appFacts":[{"app":"com.example.game","fact":"storeConsent:dataSharing","value":"granted","detail":["appStore"],"position":21}],
         "consents":[{"kind":"question","id":"q1","app":"com.example.game","topic":"significantChange","status":"approval",
                      "answeredBy":"g_1","channel":"inPerson","evidence":[15,16]}]}
        """#)

    @Test("a subject's state is sections in the reports' words, every key in a title, the JSON collapsed")
    func stateSections() throws {
        let context = SubjectStateSections.Context(log: "acme", subject: "p_0123456789abcdef0123456789abcdef", asOfText: "", clock: .recorded)
        let finding = AnomalyFindings.Finding(rule: "access-without-approval", kind: .violation, position: 20, subject: context.subject,
                                              detail: "opened without approval.", evidence: [12, 20])
        let html = SubjectStateSections.render(Self.state, findings: [finding], context: context).markup
        for part in ["state-age", "state-signals", "state-features", "state-consents", "state-findings", "state-app-facts"] {
            #expect(html.contains("id=\"\(part)\""), "\(part)")
        }
        #expect(html.contains("<span title=\"13to15\">13 to 15</span>"))
        #expect(html.contains("<span title=\"SUPERVISED_APPROVAL_PENDING\">supervised, approval pending</span>"))
        #expect(html.contains("<span title=\"guardianDeclared\">guardian declared</span>"))
        #expect(html.contains("store consent (data sharing)"))
        #expect(html.contains(">approved<"), "the register's status in words")
        #expect(html.contains("access without approval") && !html.contains("approval.."), "the rule in words, one full stop")
        #expect(html.contains("/explain?feature=directMessages&amp;asOf=&amp;clock=recorded"))
        #expect(html.contains("<details class=\"raw-json\" id=\"state-json\">") && !html.contains("<details class=\"raw-json\" id=\"state-json\" open"))
    }

    @Test("a pseudonym the log has never seen gets the near matches and words for a browser user, never a command")
    func notFound() {
        let entry = SubjectEntry(subject: "p_0123456789abcdef", ageCategory: "under13", erased: false, consentItems: 3, denials: 1,
                                 rescissions: 0, violations: 0, lastPosition: 40)
        let content = SubjectSearchPage.Content(log: "acme", typed: "p_0123456789abzzz", prefix: "p_0123456789", matches: [entry], more: false,
                                                notFound: true, projectedThrough: 40, head: 40)
        let page = SubjectSearchPage.render(content, key: Self.key)
        #expect(page.contains("<h1>Subject not found</h1>"))
        #expect(page.contains("href=\"/console/logs/acme/subjects/p_0123456789abcdef\""))
        #expect(page.contains("under 13"))
        #expect(!page.contains("consent-ledger") && !page.contains("--prefix") && !page.contains("CLI"))
    }

    @Test("an explanation's sentences end with one full stop and name events by position, not by id")
    func explanationWords() {
        #expect(ExplainPage.sentence("the gate was applied.") == "The gate was applied.")
        #expect(ExplainPage.sentence("opened for 13to15") == "Opened for 13to15.")
        #expect(ExplainPage.sentence("com.example.chat opened it") == "com.example.chat opened it.", "an identifier keeps its spelling")
        #expect(ExplainPage.sentence("exception-ex-1 was already decided..") == "exception-ex-1 was already decided.")
        let id = "5c3e8f0a-1b2c-4d5e-8f90-0123456789ab"
        let html = ExplainPage.words("citing \(id) and #7; the subject was 13to15.", log: "acme", positions: [id: 12]).markup
        #expect(html.contains("<a href=\"/console/logs/acme/events/12\" title=\"event \(id)\">#12</a>"))
        #expect(html.contains("<a href=\"/console/logs/acme/events/7\">#7</a>"))
        #expect(html.contains("<span title=\"13to15\">13 to 15</span>"), "the key only in the title")
        let unknown = ExplainPage.words("citing \(id)", log: "acme", positions: [:]).markup
        #expect(unknown.contains("<code class=\"id\" title=\"\(id)\">5c3e8f0a…</code>"), "another id (a question's) cut short, the whole in the title")
    }

    @Test("a sentence's keys read as words, each key in a title; pseudonyms, ids and acronyms stay as they are")
    func prose() {
        let html = ConsoleWords.prose("required: declaredAgeRangeRequired; Play said SUPERVISED_APPROVAL_PENDING for 13to15 on iOS, ID p_ab12 (UTC).").markup
        #expect(html == "required: <span title=\"declaredAgeRangeRequired\">declared age range required</span>; Play said "
            + "<span title=\"SUPERVISED_APPROVAL_PENDING\">supervised, approval pending</span> for <span title=\"13to15\">13 to 15</span>"
            + " on iOS, ID p_ab12 (UTC).")
    }

    @Test("the report form's presets are the calendar month and quarter before today, the end exclusive")
    func presets() throws {
        let format = ISO8601DateFormatter()
        let inMarch = try #require(format.date(from: "2026-03-15T10:00:00Z"))
        #expect(ReportsPage.presets(today: inMarch).map { [$0.id, $0.from, $0.to] }
            == [["last-month", "2026-02-01", "2026-03-01"], ["last-quarter", "2025-10-01", "2026-01-01"]])
        let inJanuary = try #require(format.date(from: "2026-01-02T00:00:00Z"))
        #expect(ReportsPage.presets(today: inJanuary).map { [$0.from, $0.to] } == [["2025-12-01", "2026-01-01"], ["2025-10-01", "2026-01-01"]])
        #expect(ReportsPage.dayAfter("2026-02-28") == "2026-03-01")
        let page = ReportsPage.render(log: "acme", jurisdictions: [.init(code: "US-TX", events: 120, firstDay: "2026-01-05", lastDay: "2026-02-10")],
                                      today: inMarch, key: Self.key)
        #expect(page.contains("<option value=\"US-TX\" data-from=\"2026-01-05\" data-to=\"2026-02-11\">US-TX (Texas): 120 events"))
    }

    @Test("the register's times read short on one line, the exact value in datetime and title; pseudonyms are cut with the whole in the title")
    func registerCells() {
        #expect(RegisterPage.time("2026-09-10T12:34:56Z").markup
            == "<time class=\"nowrap\" datetime=\"2026-09-10T12:34:56Z\" title=\"2026-09-10T12:34:56Z (UTC)\">2026-09-10 12:34</time>")
        #expect(RegisterPage.time(nil).markup == "—")
        #expect(RegisterPage.short("p_0123456789abcdef") == "p_0123456789…")
        #expect(RegisterPage.label("approval") == "approved" && RegisterPage.label("denial") == "denied")
    }
}
