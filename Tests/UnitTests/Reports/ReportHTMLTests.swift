import Foundation
@testable import LedgerCore
import Testing
@testable import LedgerReportHTML

/// The HTML reports (decision 0014), from small hand-built sealed reports of each kind.
///
/// Set REPORT_HTML_SAMPLES_DIR to a folder to have the sample pages written there, then look at
/// them with `tools/render-reports DIR/*.html`.
@Suite("HTML reports (ReportHTML)")
struct ReportHTMLTests {
    // MARK: Consent register

    @Test("consent register: outcomes per week and time to answer as SVG bars with their counts")
    func registerCharts() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.register())
        let weeks = try #require(ReportHTMLSamples.figure(html, id: "chart-register-weeks"))
        #expect(weeks.contains("<svg class=\"chart\" role=\"img\""))
        // One stacked bar per ISO week (Monday, UTC) from the first to the last question.
        for week in ["2026-03-02", "2026-03-09", "2026-03-16"] { #expect(weeks.contains(">\(week)</text>"), "\(week)") }
        #expect(!weeks.contains(">2026-03-23</text>"))
        // A segment per week and outcome that has items: week 1 approved + denied + pending
        // (the hostile row), week 2 expired, week 3 approved + pending + rescinded.
        #expect(ReportHTMLSamples.count("class=\"bar\"", in: weeks) == 7)
        #expect(weeks.contains("2026-03-02: 1 approved, 1 denied, 1 pending (3 in all); 2026-03-09: 1 expired (1 in all); "
                               + "2026-03-16: 1 approved, 1 pending, 1 approved, later rescinded (3 in all)."))
        // Totals above the bars, legend names every outcome.
        #expect(weeks.contains("font-weight=\"bold\">3</text>"))
        for outcome in ["approved", "denied", "expired", "failed", "pending", "approved, later rescinded"] {
            #expect(weeks.contains(">\(outcome)</text>"), "legend: \(outcome)")
        }

        let time = try #require(ReportHTMLSamples.figure(html, id: "chart-register-time"))
        // The regulator's buckets, in order; 1 800 s and 30 s under an hour, 7 200 s in 1 to 6
        // hours, 100 000 s and 150 000 s in 1 to 3 days.
        #expect(time.contains("under 1 hour: 2 answered; 1 to 6 hours: 1 answered; 6 to 24 hours: none; "
                              + "1 to 3 days: 2 answered; 3 to 7 days: none; 7 days or more: none."))
        #expect(ReportHTMLSamples.count("class=\"bar\"", in: time) == 3)
        for bucket in RegulatorVocabulary.timeToAnswerBuckets { #expect(time.contains(">\(bucket.label)</text>")) }
    }

    @Test("consent register: a week is the ISO week of the UTC date, whatever the offset asked at")
    func registerWeeksAreUTCMondays() throws {
        let rows: [JSONValue] = [
            ReportHTMLSamples.registerRow(id: "q-thu", askedAt: "2026-01-01T10:00:00Z", answer: "pending"),              // a Thursday
            ReportHTMLSamples.registerRow(id: "q-sun", askedAt: "2026-03-08T23:30:00-02:00", answer: "pending"),         // Monday 01:30 UTC
            ReportHTMLSamples.registerRow(id: "q-mon", askedAt: "2026-03-09T00:30:00+02:00", answer: "pending"),         // Sunday 22:30 UTC
        ]
        let html = try ReportHTML.render(ReportHTMLSamples.register(rows: rows))
        let weeks = try #require(ReportHTMLSamples.figure(html, id: "chart-register-weeks"))
        #expect(weeks.contains("2025-12-29: 1 pending"))
        #expect(weeks.contains("2026-03-09: 1 pending"))
        #expect(weeks.contains("2026-03-02: 1 pending"))
        // Every week between is listed, with nothing in it.
        #expect(weeks.contains("2026-01-05: none"))
    }

    @Test("consent register: every row shows its evidence, and absent values a dash or a word, never null")
    func registerRows() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.register())
        // Identifiers whole (no break opportunity), evidence as positions.
        #expect(html.contains("<code class=\"id whole\">6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318</code>"))
        #expect(html.contains("<span class=\"pos\">#12</span>"))
        #expect(html.contains("<span class=\"pos\">#31</span>"))
        #expect(html.contains("guardian not disclosed"))
        #expect(html.contains("after 2 h"))
        // A question that could not be asked: when it was tried, and PermissionKit's error.
        #expect(html.contains("tried <time class=\"nw\" datetime=\"2026-03-18T07:15:00Z\">"))
        #expect(html.contains(": communicationLimitsNotEnabled"))
        #expect(!html.contains("null"))
        // One table row per item, numbered, on landscape pages.
        let register = try #require(html.components(separatedBy: "<table class=\"data register").dropFirst().first?.components(separatedBy: "</table>").first)
        let rows = try ReportHTMLSamples.register()["rows"]?.arrayValue?.count ?? 0
        #expect(register.components(separatedBy: "<tr>").count - 1 == rows + 1)  // the header row too
        #expect(html.contains("<meta name=\"page-orientation\" content=\"landscape\">"))
        #expect(html.contains("@page { size: landscape;"))
    }

    @Test("a section names the laws of its jurisdiction that were not in force in the period, with their status, and is not titled by them")
    func lawsNotInForce() throws {
        guard case .object(var report) = try ReportHTMLSamples.regulator(), case .object(var coverage)? = report["coverage"] else {
            Issue.record("the sample has no coverage section")
            return
        }
        coverage["title"] = "Coverage"
        coverage["lawsNotInForce"] = coverage["laws"]
        coverage["laws"] = []
        report["coverage"] = .object(coverage)
        let html = try ReportHTML.render(.object(report))
        #expect(html.contains("Not in force at any time in this period, so not applied: Texas SB 2420 (App Store Accountability Act) "
                              + "(Enjoined 2025-12-23; the Fifth Circuit stayed the injunction on 2026-05-28.)"))
        #expect(html.contains("statuses as checked on 2026-11-28"))
        #expect(html.contains("No law of the ledger’s catalogue on this subject governs the whole of this jurisdiction."))
    }

    @Test("a policy's statement prints its Markdown as text set out (paragraphs, lists, code, strong, emphasis, links' addresses), never its marks or HTML of its own")
    func statementMarkdown() throws {
        let statement = "Records are kept **three years**, then *erased* with `erase`.\n\n- age signals\n- answers\n\n"
            + "See [the policy](https://example.com/retention) <script>alert(1)</script> and 2 * 3 * 4."
        let html = ReportMarkup.markdown(statement).markup
        #expect(html == "<div class=\"statement\"><p>Records are kept <strong>three years</strong>, then <em>erased</em> with <code>erase</code>.</p>"
            + "<ul><li>age signals</li><li>answers</li></ul>"
            + "<p>See the policy (https://example.com/retention) &lt;script&gt;alert(1)&lt;/script&gt; and 2 * 3 * 4.</p></div>\n")
        let page = try ReportHTML.render(ReportHTMLSamples.regulator { report in
            var retention = report["retention"]?.objectValue ?? [:]
            retention["policy"] = ["policyId": "retention-2026-01", "statement": .string(statement)]
            report["retention"] = .object(retention)
        })
        #expect(page.contains("kept <strong>three years</strong>") && !page.contains("**"))
    }

    @Test("a regulator report's notices come first, as warnings, before its key figures")
    func regulatorNotices() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.regulator { report in
            report["notices"] = [["code": "no-events-in-period",
                                  "message": "No event of log acme-kids occurred in this period: as of position 41, its events occurred from 2026-10-02T09:00:00Z to 2026-10-30T18:00:00Z."],
                                 ["code": "issued-before-period-end", "message": "The policy dates this report 2026-09-15, before its period ended (2026-10-01T00:00:00Z)."]]
        })
        let warning = try #require(html.range(of: "<p class=\"warning\">No event of log acme-kids occurred in this period"))
        let figures = try #require(html.range(of: "events counted"))
        #expect(warning.lowerBound < figures.lowerBound)
        #expect(html.contains("<p class=\"warning\">The policy dates this report 2026-09-15, before its period ended"))
        #expect(!(try ReportHTML.render(ReportHTMLSamples.regulator())).contains("<p class=\"warning\">"))
    }

    @Test("a dossier's history runs by the devices' clocks, and says when the ledger recorded events later than they occurred")
    func dossierSpanByOccurrence() throws {
        let inOrder = try ReportHTML.render(ReportHTMLSamples.dossier())
        #expect(inOrder.contains("The history’s events occurred from 2026-11-20 16:01:19 UTC (position 1) to 2026-11-20 16:09:19 UTC (position 9), by the devices’ clocks."))
        guard case .object(var members) = try ReportHTMLSamples.dossier(), case .array(var steps)? = members["steps"],
              case .object(var late) = steps[steps.count - 1] else {
            Issue.record("the sample has no steps")
            return
        }
        late["occurredAt"] = "2026-11-20T15:00:00Z"   // reached the ledger last, occurred first
        steps[steps.count - 1] = .object(late)
        members["steps"] = .array(steps)
        members[ReportSeal.member] = nil
        let html = try ReportHTML.render(ReportHTMLSamples.sealed(members))
        #expect(html.contains("The history’s events occurred from 2026-11-20 15:00:00 UTC (position 9) to 2026-11-20 16:08:19 UTC (position 8), "
                              + "by the devices’ clocks; the ledger recorded them from position 1 to 9, some later than they occurred."))
    }

    @Test("printed labels are words, each with its key in the title: 13 to 15, supervised, approval pending, government ID checked")
    func labels() throws {
        #expect(ReportLabels.words("13to15") == "13 to 15" && ReportLabels.words("18toMajority") == "18, under the age of majority")
        #expect(ReportLabels.words("SUPERVISED_APPROVAL_PENDING") == "supervised, approval pending")
        #expect(ReportLabels.words("VERIFIED") == "verified")
        #expect(ReportLabels.words("guardianDeclared") == "guardian declared")
        #expect(ReportLabels.words("governmentIDChecked") == "government ID checked")
        #expect(ReportLabels.words("ageRatingExceptionNotNeeded") == "age rating exception not needed")
        #expect(ReportLabels.words("13+") == "13+" && ReportLabels.words("none") == "none" && ReportLabels.words("not stated") == "not stated")
        let html = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(html.contains("<th scope=\"row\" title=\"13to15\">13 to 15</th>"))
        #expect(html.contains("<th scope=\"row\" title=\"SUPERVISED_APPROVAL_PENDING\">supervised, approval pending</th>"))
        #expect(!html.contains(">13to15<") && !html.contains(">guardianDeclared<"))
    }

    @Test("every page ends with a sign-off block: the policy's preparer and reviewer, or lines to write on, and the date of issue")
    func signOff() throws {
        let named = try ReportPolicy.parse(Array(#"{"dateOfIssue": "2026-11-24", "signOff": {"preparedBy": "A. Auditor", "reviewedBy": "B. <Counsel>"}}"#.utf8))
        let html = try ReportHTML.render(ReportHTMLSamples.register(), policy: named)
        let block = try #require(html.components(separatedBy: "<section id=\"sign-off\" class=\"signoff\">").dropFirst().first?
            .components(separatedBy: "</section>").first)
        #expect(block.contains("<th scope=\"row\">Prepared by</th><td><strong>A. Auditor</strong></td>"))
        #expect(block.contains("<strong>B. &lt;Counsel&gt;</strong>") && block.contains("Date of issue: <strong>2026-11-24</strong>."))
        let blank = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(blank.contains("<th scope=\"row\">Reviewed by</th><td><span class=\"line\"></span></td>"))
        #expect(throws: LedgerError.self) { try ReportPolicy.parse(Array(#"{"signOff": {"approvedBy": "C"}}"#.utf8)) }
    }

    @Test("a chart with nothing to show says so in a sentence instead of drawing an empty axis")
    func emptyCharts() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.register(rows: []))
        #expect(html.contains("<p class=\"empty\">No questions were sent and no exceptions requested in this period.</p>"))
        #expect(html.contains("<p class=\"empty\">No question or exception was answered in this period.</p>"))
        #expect(!html.contains("<svg"))

        let regulator = try ReportHTML.render(ReportHTMLSamples.regulator(quiet: true))
        #expect(regulator.contains("<p class=\"empty\">No questions were sent in this period.</p>"))
        #expect(regulator.contains("<p class=\"empty\">No question was answered in this period.</p>"))
        #expect(regulator.contains("The ledger’s rules found no violations in this period."))
        #expect(!regulator.contains("id=\"chart-outcomes-by-week-title\""))
        #expect(!regulator.contains("id=\"chart-time-to-answer-title\""))
        // The age signals still had some: that chart is drawn.
        #expect(regulator.contains("id=\"chart-age-categories-title\""))
        #expect(regulator.contains("Median time to answer</th><td class=\"num\"><span class=\"none\">— (none answered)</span>"))
        #expect(!regulator.contains("null"))
    }

    // MARK: Escaping and self-containment

    @Test("text from the report is escaped: & < > \" ' cannot become markup")
    func hostileValuesAreEscaped() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.register())
        #expect(!html.contains("<script"))
        #expect(!html.contains("<iframe"))
        #expect(!html.contains("\" onmouseover="))
        #expect(html.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/"))
        #expect(html.contains("com.evil&amp;co&#39;s"))
        #expect(html.contains("custom:&lt;iframe onload=alert(1)&gt;"))
        // Report text in the running header's CSS cannot end the string or the style element.
        #expect(html.components(separatedBy: "</style>").count == 2)
        #expect(ReportPage.cssString("a\"b\\c</style><x>\n") == #""a\"b\\c\3c /style\3e \3c x\3e  ""#)
        // In an attribute too (a time's datetime).
        #expect(html.contains("datetime=\"2026-03-02T09:30:00Z&quot; onmouseover=&quot;alert(1)\""))

        let regulator = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(regulator.contains("opened chat to a minor &lt;b&gt;under13&lt;/b&gt;"))
        #expect(!regulator.contains("<b>under13"))
    }

    @Test("pages are self-contained: no scripts, no external images, sheets, fonts or links")
    func noExternalReferences() throws {
        for report in [try ReportHTMLSamples.register(), try ReportHTMLSamples.dossier(), try ReportHTMLSamples.regulator()] {
            let html = try ReportHTML.render(report)
            for forbidden in ["http://", "https://", "src=", "@import", "url(", "<script", "<link", "<iframe", "<img", "<object", "@font-face"] {
                #expect(!html.lowercased().contains(forbidden), "\(forbidden)")
            }
            // The only links are to sections of the same page.
            let links = html.components(separatedBy: "href=\"").dropFirst()
            #expect(links.allSatisfy { $0.hasPrefix("#") })
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
            #expect(html.hasSuffix("</body>\n</html>\n"))
        }
    }

    @Test("print: no paper size forced, 180 mm content, running header and footer with page numbers, headers repeat, small tables and charts kept whole")
    func printableOnA4AndLetter() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.dossier())
        let style = try #require(html.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>").first)
        let page = try #require(style.components(separatedBy: "@page {").dropFirst().first?.components(separatedBy: "}").first)
        #expect(page.contains("margin: "))
        #expect(!style.contains("{ size:") && !style.contains("; size:"))
        // The base rule and the running header and footer (page-margin boxes) with "Page N of M".
        #expect(ReportHTMLSamples.count("@page", in: style) == 2)
        #expect(style.contains("@bottom-right { content: \"Page \" counter(page) \" of \" counter(pages);"))
        #expect(style.contains("@top-right { content: \"seal sha256 "))
        #expect(style.contains("table.keep { break-inside: avoid;"))
        #expect(style.contains("section.appendix { break-before: page;"))
        #expect(style.contains("max-width: 180mm"))
        #expect(style.contains("thead { display: table-header-group; }"))
        #expect(style.contains("figure.chart { margin: 3mm 0 4mm; break-inside: avoid;"))
        #expect(style.contains(".provenance {") && style.contains("break-inside: avoid"))
        #expect(style.contains(".id { overflow-wrap: anywhere; }"))
    }

    // MARK: Provenance and determinism

    @Test("the method appendix states parameters, position, chain hash, software and the JSON's sha256 with how to check it")
    func provenance() throws {
        let report = try ReportHTMLSamples.regulator()
        let html = try ReportHTML.render(report)
        let sha256 = try #require(report["sha256"]?.stringValue)
        #expect(html.contains("<h2 id=\"method-title\">Appendix: method and verification</h2>"))
        #expect(html.contains("<dt>Jurisdiction</dt><dd><code class=\"id\">US-<wbr>TX</code></dd>"))
        #expect(html.contains("<dt>As of position</dt><dd>48,213</dd>"))
        #expect(html.contains("<dt>Chain hash there</dt><dd><code class=\"id\">\(ReportHTMLSamples.headHash)</code></dd>"))
        #expect(html.contains("<dt>Software</dt><dd><code class=\"id\">consent-<wbr>ledger/<wbr>0.<wbr>1.<wbr>0</code></dd>"))
        #expect(html.contains("the JSON form of this report carries sha256 <code class=\"id\">\(sha256)</code>; remove the sha256 member, "
                              + "write the rest as RFC 8785 canonical JSON and hash it"))
        #expect(html.contains("Checked while rendering: this sha256 matches"))

        // A JSON changed after it was sealed is still shown, under a warning.
        guard case .object(var members) = report else { Issue.record("not an object"); return }
        members["software"] = "consent-ledger/9.9.9"
        let tampered = try ReportHTML.render(.object(members))
        #expect(tampered.contains("Warning: the sha256 member does not match the content of the JSON"))
        #expect(!tampered.contains("Checked while rendering"))
    }

    @Test("a page files as a regulator expects: findings first, then what it is, the sections, the method last; issuer and date from the policy")
    func fileable() throws {
        let policy = try ReportPolicy.parse(Array(#"{"issuer": {"organisation": "Kids & Co <Ltd>", "contact": "legal@kids.example"}, "dateOfIssue": "2026-11-24"}"#.utf8))
        for report in [try ReportHTMLSamples.register(), try ReportHTMLSamples.dossier(), try ReportHTMLSamples.regulator()] {
            let html = try ReportHTML.render(report, policy: policy)
            let order = ["<h1>", "Issued by <strong>Kids &amp; Co &lt;Ltd&gt;</strong> (legal@kids.example); date of issue <strong>2026-11-24</strong>.",
                         "<section id=\"findings\">\n<h2>Summary of findings</h2>", "<h2 id=\"about-title\">About this report</h2>", "<main>",
                         "<h2 id=\"method-title\">Appendix: method and verification</h2>", "<footer>"]
            let places = order.map { html.range(of: $0)?.lowerBound }
            #expect(places.allSatisfy { $0 != nil }, "\(zip(order, places).filter { $0.1 == nil }.map(\.0))")
            #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "out of order")
            // The running footer names the issuer and the date on every printed page.
            #expect(html.contains(#"@bottom-left { content: "Kids \26  Co \3c Ltd\3e  · issued 2026-11-24";"#))
            #expect(try ReportHTML.render(report, policy: policy) == html)
            let unnamed = try ReportHTML.render(report)
            #expect(unnamed.contains("Issuing organisation and date of issue: not given"))
            #expect(unnamed.contains(#"@bottom-left { content: "issuer not named · no date of issue";"#))
        }
        let regulator = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(regulator.contains("<ul class=\"findings\">") && regulator.contains("(<a href=\"#violations\">each with its evidence</a>)"))
        #expect(!(try ReportHTML.render(ReportHTMLSamples.dossier())).contains("landscape\">"))
    }

    @Test("the same report gives the same bytes, whatever order its members were parsed in")
    func deterministic() throws {
        for report in [try ReportHTMLSamples.register(), try ReportHTMLSamples.dossier(), try ReportHTMLSamples.regulator()] {
            let first = try ReportHTML.render(report)
            #expect(try ReportHTML.render(report) == first)
            #expect(try ReportHTML.render(json: CanonicalJSON.encode(report)) == first)
            #expect(try ReportHTML.render(JSONParser.parse(ReportHTMLSamples.reversedJSON(report))) == first)
        }
        // Integers are written without ".0", counts grouped, shares as percentages.
        let html = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(html.contains("<td class=\"num\">31,877</td>"))
        #expect(html.contains("81.25 % of installs"))
        #expect(html.contains("87.25 % by the period’s end"))
        #expect(!html.contains("31877.0") && !html.contains("48213.0"))
    }

    // MARK: Regulator report

    @Test("regulator: every section of the schema, with its figures")
    func regulatorSections() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.regulator())
        for (anchor, title) in [("scope", "Scope"), ("age-signals", "Age signals"), ("consent", "Consent"),
                                ("significant-changes", "Significant changes"), ("exceptions", "Age-rating exceptions"),
                                ("violations", "Violations found by the ledger’s rules"), ("coverage", "Coverage (Texas SB 2420)"),
                                ("retention", "Retention and erasure (COPPA)"), ("integrity", "Integrity"), ("policy", "The policy in force")] {
            #expect(html.contains("<section id=\"\(anchor)\">\n<h2>\(title)</h2>"), "\(anchor)")
            #expect(html.contains("<a href=\"#\(anchor)\">"), "contents: \(anchor)")
        }
        #expect(html.contains("<h1>Regulator report: US-TX</h1>"))
        // A Texas report is titled by Texas's law and COPPA, never by another state's law.
        #expect(!html.contains("AB 1043") && html.contains("Governed by Texas SB 2420 (App Store Accountability Act)"))
        #expect(html.contains("Texas (<code class=\"id\">US-<wbr>TX</code>) alone"))
        #expect(html.contains("<h3>Unknown jurisdiction codes</h3>") && html.contains("<code class=\"id\">TX</code>"))
        #expect(html.contains("<li><strong>7 events of the period named a jurisdiction code that is not ISO 3166</strong> (<code class=\"id\">TX</code>)"))
        #expect(html.contains("Its root hash"))
        #expect(html.contains("<span class=\"pass\">passed</span>"))
        #expect(html.contains("Median time to answer</th><td class=\"num\">2 h 21 min <span class=\"exact\">(8,460 s)</span>"))
        #expect(html.contains("Oldest pending question"))
        #expect(html.contains("9 d 2 h <span class=\"exact\">(784,800 s)</span>"))
        #expect(html.contains("Enforced within 24 hours</th><td class=\"num\">6</td>"))
        #expect(html.contains("<div class=\"statement\"><p>Age signals and consent records are kept for 3 years after the account closes"))
        #expect(html.contains("<code class=\"id\">retention-<wbr>2026-<wbr>01</code>"))
        #expect(html.contains("<code class=\"id\">file sha256:<wbr>"))
        #expect(html.contains("<th scope=\"row\">16+</th><td class=\"num\">9</td><td class=\"num\">5</td><td class=\"num\">3</td>"))
        #expect(html.contains("<span class=\"pos\">#40211</span>"))
        // The facts of issue 38 (item 5): eligibility, the store's consent status, notices of changes,
        // install outcomes, devices' rating limits, Approve in Person.
        #expect(html.contains("<h3>Eligibility checks</h3>") && html.contains("notEligible"))
        #expect(html.contains("<h3>Parental controls</h3>") && html.contains("significantAppChangeApprovalRequired"))
        #expect(html.contains("<h3>The app store’s consent status</h3>") && html.contains("notObtained"))
        #expect(html.contains("datetime=\"2026-06-20T09:10:00Z\"") && html.contains("no notice on record"))
        #expect(html.contains("<h3>Install attempts</h3>") && html.contains("ratingRestricted"))
        #expect(html.contains("<h3>Devices’ rating limits</h3>") && html.contains("noLimit"))
        #expect(html.contains("Sheets shown</th><td class=\"num\">7</td>"))
        // The rules' statements are written with Markdown's inline code: printed as code, no backtick.
        #expect(html.contains("<code>isEligibleForAgeFeatures</code>"))
        let rulesList = try #require(html.components(separatedBy: "<ul class=\"note rules\">").dropFirst().first?.components(separatedBy: "</ul>").first)
        #expect(!rulesList.contains("`"))
        #expect(!html.contains("null"))

        // A failed verification is shown as such.
        let failed = try ReportHTML.render(ReportHTMLSamples.regulator { report in
            report["integrity"] = ["checkpoint": nil, "verifiedFrom": 1, "verifiedThrough": 48213, "citedProved": 0,
                                   "projectionsProven": nil, "passed": false,
                                   "problem": "position 3107: the chain hash does not match", "method": "recomputed"]
        })
        #expect(failed.contains("<span class=\"fail\">FAILED</span>"))
        #expect(failed.contains("position 3107: the chain hash does not match"))
        #expect(failed.contains("Projections last proven equal to the log") && failed.contains("never, at or below this position"))
        let proven = try ReportHTML.render(ReportHTMLSamples.regulator { _ in })
        #expect(proven.contains("to position 48,100") && proven.contains("Cited records before them, proved in the signed tree"))
        #expect(failed.contains("The log failed verification"))
        #expect(failed.contains("None at or below position 48,213") && failed.contains("1 to 48,213"))
        // The checkpoint a report rests on is named, and what came after it is what was re-hashed.
        #expect(html.contains("The log’s first 48,000 events, signed by ledger.acme-kids.example"))
        #expect(html.contains("48,001 to 48,213"))
    }

    @Test("regulator: outcomes per week, time to answer and signals by age band are SVG charts with counts and legends")
    func regulatorCharts() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.regulator())
        #expect(ReportHTMLSamples.count("<svg class=\"chart\" role=\"img\"", in: html) == 3)

        let weekly = try #require(ReportHTMLSamples.figure(html, id: "chart-outcomes-by-week"))
        // 14 weeks, a bar segment per week and non-zero outcome (counted by hand: 39).
        #expect(ReportHTMLSamples.count("class=\"bar\"", in: weekly) == 39)
        #expect(weekly.contains(">2026-06-29</text>") && weekly.contains(">2026-09-28</text>"))
        #expect(weekly.contains("2026-08-03: 14 approved, 2 denied, 3 expired, 1 failed (20 in all)"))
        #expect(weekly.contains("2026-07-27: none"))
        for outcome in ["approved", "denied", "expired", "failed", "pending"] { #expect(weekly.contains(">\(outcome)</text>")) }
        #expect(weekly.contains("aria-labelledby=\"chart-outcomes-by-week-title chart-outcomes-by-week-desc\""))
        #expect(weekly.contains("<title id=\"chart-outcomes-by-week-title\">"))
        #expect(weekly.contains(">Week starting (Monday, UTC)</text>"))
        #expect(weekly.contains(">Questions sent</text>"))
        // Its numbers are also a table, with what was sent.
        #expect(html.contains("<th scope=\"row\">2026-08-03</th><td class=\"num\">20</td><td class=\"num\">14</td>"))

        let time = try #require(ReportHTMLSamples.figure(html, id: "chart-time-to-answer"))
        #expect(ReportHTMLSamples.count("class=\"bar\"", in: time) == 6)
        #expect(time.contains("under 1 hour: 41 answered; 1 to 6 hours: 52 answered; 6 to 24 hours: 30 answered; "
                              + "1 to 3 days: 12 answered; 3 to 7 days: 3 answered; 7 days or more: 1 answered."))
        #expect(time.contains(">52</text>"))

        let ages = try #require(ReportHTMLSamples.figure(html, id: "chart-age-categories"))
        #expect(ReportHTMLSamples.count("class=\"bar\"", in: ages) == 10)
        #expect(ages.contains(">Apple Declared Age Range</text>") && ages.contains(">Google Play Age Signals</text>"))
        #expect(ages.contains("adult: 410 Apple Declared Age Range, 77 Google Play Age Signals"))
        for band in ["under 13", "13 to 15", "16 to 17", "adult", "unknown"] { #expect(ages.contains(">\(band)</text>")) }
    }

    @Test("regulator: violations cite their evidence, and an erased subject carries a visible marker")
    func regulatorViolations() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.regulator())
        let section = try #require(html.components(separatedBy: "<section id=\"violations\">").dropFirst().first?
            .components(separatedBy: "</section>").first)
        let rows = section.components(separatedBy: "<tr>").dropFirst(2)  // the header row, then one per violation
        #expect(rows.count == 3)
        let erased = rows.filter { $0.contains("<span class=\"erased\"") }
        #expect(erased.count == 1)
        #expect(erased.first?.contains("p_51be07c2") == true)
        #expect(erased.first?.contains("<span class=\"pos\">#40211</span> <code class=\"id\">9b1d") == true)
        #expect(section.contains("3 violations found: 1 × access-without-approval, 1 × answer-after-question-expired, 1 × rescission-not-enforced."))
        // A finding judged without a fact says which, and only that one does.
        #expect(section.contains("<br><strong>Needs review:</strong> the version the subject first used the app at is not on record"))
        #expect(section.components(separatedBy: "Needs review:").count == 2)
        // Erasures under retention are marked too.
        let retention = try #require(html.components(separatedBy: "<section id=\"retention\">").dropFirst().first)
        #expect(retention.contains("<code class=\"id\">p_51be07c2</code> <span class=\"erased\""))
    }

    // MARK: Subject dossier

    @Test("dossier: a table of steps with evidence and what changed; an erased subject is marked erased")
    func dossier() throws {
        let html = try ReportHTML.render(ReportHTMLSamples.dossier())
        #expect(html.contains("<h1>Subject dossier</h1>"))
        #expect(html.contains("<li><strong>access-opened-without-basis</strong> (violation) at #5: drawing was opened for p_7f3a9c citing no event. Evidence: #5.</li>"))
        #expect(html.contains("found 2 violations and 0 anomalies"))
        #expect(html.contains("Evidence: #2, #3, #7. <strong>Needs review:</strong> the version the subject first used the app at is not on record.</li>"))
        // The declaration a finding cites, outside the subject's history, is carried beside it.
        let cited = try #require(html.components(separatedBy: "<section id=\"cited-events\">").dropFirst().first)
        #expect(cited.contains("<span class=\"pos\">#2</span>") && cited.contains("The app declared significant change c-rooms"))
        #expect(html.contains("<span class=\"pos\">#3</span><br><code class=\"id\">0c4b2d6e-<wbr>1f3a-<wbr>4b5c-<wbr>8d7e-<wbr>9f0a1b2c3d03</code>"))
        #expect(html.contains("<strong>Age</strong>: <strong>13 to 15</strong> (13–15, guardian declared) from AgeRangeShared at #3"))
        #expect(html.contains("<span class=\"unchanged\">unchanged</span>"))
        #expect(html.contains("<span class=\"outcome o-approved\">approved</span> by g_2b81d4, by message"))
        #expect(html.contains("Feature sharedRooms of com.example.kidsdraw: <strong>closed</strong>"))
        #expect(html.contains("This subject was erased at position 9"))
        #expect(html.contains("<dt>Subject</dt><dd><code class=\"id\">p_7f3a9c</code> <span class=\"erased\""))
        #expect(html.contains("<tr><th scope=\"row\">Erased</th><td><span class=\"erased\""))
        // One row per step (7), and one for the event cited from outside the history.
        #expect(ReportHTMLSamples.count("<tr><td><span class=\"pos\">", in: html) == 7 + 1)
        #expect(!html.contains("null"))
    }

    // MARK: Errors

    @Test("an unknown report kind, a non-report or a missing member is refused with a message that names it")
    func refusals() throws {
        do {
            _ = try ReportHTML.render(["report": "audit-trail", "sha256": "00"])
            Issue.record("an unknown kind rendered")
        } catch let error as LedgerError {
            #expect(error.code == .invalidField)
            #expect(error.field == "report")
            #expect(error.message == "unknown report kind \"audit-trail\": the HTML renderer knows consent-register, subject-dossier, regulator")
        }
        #expect(throws: LedgerError.self) { try ReportHTML.render(["rows": []]) }
        #expect(throws: LedgerError.self) { try ReportHTML.render([1, 2]) }
        #expect(throws: LedgerError.self) { try ReportHTML.render(json: Array("{\"report\":".utf8)) }

        do {
            _ = try ReportHTML.render(ReportHTMLSamples.regulator { report in
                guard case .object(var consent)? = report["consent"] else { return }
                consent.removeValue(forKey: "timeToAnswer")
                report["consent"] = .object(consent)
            })
            Issue.record("a report without consent.timeToAnswer rendered")
        } catch let error as LedgerError {
            #expect(error.code == .missingField)
            #expect(error.field == "consent.timeToAnswer")
            #expect(error.message == "the regulator report has no member consent.timeToAnswer")
        }

        do {
            _ = try ReportHTML.render(ReportHTMLSamples.register(rows: [["kind": "question", "id": "q-1"]]))
            Issue.record("a row without its members rendered")
        } catch let error as LedgerError {
            #expect(error.code == .missingField)
            #expect(error.field == "rows[0].subject")
        }

        do {
            _ = try ReportHTML.render(ReportHTMLSamples.regulator { report in
                var scope = report["scope"]?.objectValue ?? [:]
                scope["eventsInPeriod"] = "many"
                report["scope"] = .object(scope)
            })
            Issue.record("a string count rendered")
        } catch let error as LedgerError {
            #expect(error.code == .invalidField)
            #expect(error.message == "scope.eventsInPeriod of the regulator report is a string, expected an integer")
        }
    }

    // MARK: ReportHTMLSamples on disk

    @Test("the sample pages are whole documents (written to REPORT_HTML_SAMPLES_DIR when it is set)")
    func samplePages() throws {
        let pages = [
            ("consent-register", try ReportHTML.render(ReportHTMLSamples.register())),
            ("consent-register-empty", try ReportHTML.render(ReportHTMLSamples.register(rows: []))),
            ("subject-dossier", try ReportHTML.render(ReportHTMLSamples.dossier())),
            ("regulator", try ReportHTML.render(ReportHTMLSamples.regulator())),
            ("regulator-quiet", try ReportHTML.render(ReportHTMLSamples.regulator(quiet: true))),
        ]
        for (name, page) in pages {
            #expect(page.hasPrefix("<!DOCTYPE html>"), "\(name)")
            #expect(ReportHTMLSamples.count("<main>", in: page) == 1 && ReportHTMLSamples.count("</main>", in: page) == 1, "\(name)")
        }
        if let folder = ProcessInfo.processInfo.environment["REPORT_HTML_SAMPLES_DIR"], !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, page) in pages {
                try Data(page.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).html"))
            }
        }
    }
}

/// Small sealed reports of each kind, as `consent-ledger report … --format json` writes them.
enum ReportHTMLSamples {
    static let headHash = "9a0d09fefdfc99af4a6208290dfc84ad4a51da019d0eca14010298f2fb649021"

    /// A report object sealed as the CLI seals it.
    static func sealed(_ members: [String: JSONValue]) throws -> JSONValue {
        try JSONParser.parse(ReportSeal.seal(members).bytes)
    }

    // MARK: Consent register

    static func registerRow(id: String, kind: String = "question", subject: String? = "p_7f3a9c", app: String = "com.example.kidsdraw",
                            topic: String? = "significantAppUpdate", askedAt: String?, expiresAt: String? = "2026-03-27T16:02:25Z",
                            answer: String, answeredAt: String? = nil,
                            answeredBy: String? = nil, channel: String? = nil, seconds: Int? = nil, rescindedAt: String? = nil,
                            failedAt: String? = nil, failedError: String? = nil, rescindedPosition: Int? = nil,
                            toldAt: String? = nil, closedAt: String? = nil,
                            positions: [Int] = [], eventIds: [String] = []) -> JSONValue {
        let isException = kind == "exception"
        return [
            "kind": .string(kind), "id": .string(id), "subject": subject.map(JSONValue.string) ?? nil, "app": .string(app),
            "topic": isException ? "ageRatingException" : (topic.map(JSONValue.string) ?? nil),
            "changeId": isException || topic != "significantAppUpdate" ? nil : "v3.0",
            "ratedApp": isException ? 6471234567 : nil, "ratedAge": isException ? "16+" : nil,
            "askedAt": askedAt.map(JSONValue.string) ?? nil, "sentVia": isException || askedAt == nil ? nil : "askCenter",
            "expiresAt": isException ? nil : (expiresAt.map(JSONValue.string) ?? nil),
            "answer": .string(answer), "answeredAt": answeredAt.map(JSONValue.string) ?? nil,
            "answeredBy": answeredBy.map(JSONValue.string) ?? nil, "answerChannel": channel.map(JSONValue.string) ?? nil,
            "timeToAnswerSeconds": seconds.map { .number(Double($0)) } ?? nil, "rescindedAt": rescindedAt.map(JSONValue.string) ?? nil,
            "failedAt": failedAt.map(JSONValue.string) ?? nil, "failedError": failedError.map(JSONValue.string) ?? nil,
            "rescindedPosition": rescindedPosition.map { .number(Double($0)) } ?? nil,
            "toldAt": toldAt.map(JSONValue.string) ?? nil, "closedAt": closedAt.map(JSONValue.string) ?? nil,
            "evidencePositions": .array(positions.map { .number(Double($0)) }), "evidenceEventIds": .array(eventIds.map(JSONValue.string)),
        ]
    }

    static let registerRows: [JSONValue] = [
        registerRow(id: "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", askedAt: "2026-03-02T09:00:00Z", answer: "approval",
                    answeredAt: "2026-03-02T09:30:00Z", answeredBy: "g_2b81d4", channel: "message", seconds: 1_800,
                    positions: [12, 14], eventIds: ["6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06"]),
        registerRow(id: "q-denied", subject: "p_a8b91a15", askedAt: "2026-03-04T10:00:00Z", answer: "denial",
                    answeredAt: "2026-03-04T12:00:00Z", answeredBy: "g_a8411f19", channel: "message", seconds: 7_200,
                    positions: [20, 22], eventIds: ["7261bae5-f7b6-4e35-9fb0-655e91f0b1c8", "44dd3cf0-b9db-47fe-b516-c1b8fc50a3a1"]),
        // Hostile values, as an app could send them.
        registerRow(id: "q-hostile", subject: "p_<script>alert(\"pwned\")</script>", app: "com.evil&co's",
                    topic: "custom:<iframe onload=alert(1)>", askedAt: "2026-03-05T08:00:00Z", answer: "pending",
                    answeredAt: "2026-03-02T09:30:00Z\" onmouseover=\"alert(1)", seconds: 30, positions: [25],
                    eventIds: ["2bb5539b-7ba1-4a71-97a7-8eb9fc21d169"]),
        registerRow(id: "q-expired", subject: "p_925a4deb", askedAt: "2026-03-10T23:30:00Z", answer: "expired",
                    positions: [27, 29], eventIds: ["d6a5c0f0-d88d-4c40-8b7c-875c507d4ef3", "60b6f188-8e04-46d7-9fb6-1288e263f3e1"]),
        registerRow(id: "ex-5521", kind: "exception", app: "com.example.marketplace", askedAt: "2026-03-16T12:00:00Z", answer: "approval",
                    answeredAt: "2026-03-17T15:46:40Z", answeredBy: "not disclosed by platform", channel: "inPerson", seconds: 100_000,
                    positions: [30, 31], eventIds: ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0a", "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0b"]),
        registerRow(id: "q-failed", subject: "p_5c0e2a17", topic: "communication", askedAt: nil, expiresAt: nil, answer: "failed",
                    failedAt: "2026-03-18T07:15:00Z", failedError: "communicationLimitsNotEnabled", positions: [32],
                    eventIds: ["5f0d8a3c-2b1e-4c7d-9a6f-0e3b2c1d4f5a"]),
        registerRow(id: "q-pending", subject: "p_df119622", askedAt: "2026-03-19T08:00:00Z", expiresAt: nil, answer: "pending",
                    positions: [33], eventIds: ["31932e96-cbee-4c75-b6a7-f46dad979fca"]),
        registerRow(id: "q-rescinded", subject: "p_84b258dc", askedAt: "2026-03-20T08:00:00Z", answer: "rescinded",
                    answeredAt: "2026-03-21T22:40:00Z", answeredBy: "g_11ba38ca", channel: "message", seconds: 150_000,
                    rescindedAt: "2026-03-25T10:00:00Z", rescindedPosition: 40, toldAt: "2026-03-25T10:00:02Z",
                    positions: [34, 36, 40, 41],
                    eventIds: ["797b4a4b-37cd-4013-9041-6bc6a98b7550", "922f7713-4d09-4507-b0b1-c0666aed10d6",
                               "23de22b9-07ff-4e31-8d02-f1d5b98c54e8", "5b0f3c1e-8a2d-4e6f-9b7c-1d2e3f4a5b6c"]),
    ]

    static func register(rows: [JSONValue] = registerRows) throws -> JSONValue {
        try sealed([
            "report": "consent-register",
            "parameters": ["log": "acme-kids", "asOf": 41, "from": nil, "to": nil, "subject": nil, "dateOfIssue": nil],
            "ledger": ["log": "acme-kids", "position": 41, "headHash": .string(headHash), "checkpoint": nil],
            "software": "consent-ledger/0.1.0",
            "columns": ["kind", "id", "subject", "app", "topic", "changeId", "ratedApp", "ratedAge", "askedAt", "sentVia", "expiresAt",
                        "answer", "answeredAt", "answeredBy", "answerChannel", "timeToAnswerSeconds", "failedAt", "failedError",
                        "rescindedAt", "rescindedPosition", "toldAt", "closedAt", "evidencePositions", "evidenceEventIds"],
            "rowCount": .number(Double(rows.count)),
            "rows": .array(rows),
            "notices": [],
        ])
    }

    // MARK: Subject dossier

    static func dossier() throws -> JSONValue {
        let age: JSONValue = ["category": "13to15", "lower": 13, "upper": 15, "declaration": "guardianDeclared", "verifiedAdult": false,
                              "source": "AgeRangeShared", "position": 3, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d03"]
        func state(consents: [JSONValue] = [], features: [JSONValue] = [], erased: Bool = false) -> JSONValue {
            ["subject": "p_7f3a9c", "age": age, "parentalControls": ["significantAppChangeApprovalRequired"], "erased": .bool(erased),
             "signals": [["platform": "iOS", "outcome": "shared", "category": "13to15", "position": 3]],
             "features": .array(features), "consents": .array(consents)]
        }
        func consent(_ status: String, by guardian: JSONValue = nil, channel: JSONValue = nil, evidence: [JSONValue]) -> JSONValue {
            ["kind": "question", "id": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "app": "com.example.kidsdraw", "topic": "significantAppUpdate",
             "changeId": "v3.0", "ratedApp": nil, "status": .string(status), "answeredBy": guardian, "channel": channel, "evidence": .array(evidence)]
        }
        let open: JSONValue = ["app": "com.example.kidsdraw", "feature": "sharedRooms", "state": "open", "policyVersion": "2026-11",
                               "basis": ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d03", "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06"], "position": 7]
        var closed = open.objectValue!
        closed["state"] = "closed"
        closed["position"] = 8
        let approved = consent("approval", by: "g_2b81d4", channel: "message", evidence: [5, 6])
        func step(_ position: Int, _ type: String, _ sentence: String, actor: String = "app", changed: Bool, _ state: JSONValue) -> JSONValue {
            ["position": .number(Double(position)), "eventId": .string("0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0\(position)"), "type": .string(type),
             "stream": "subject-p_7f3a9c", "occurredAt": .string("2026-11-20T16:0\(position):19Z"),
             "recordedAt": .string("2026-11-20T16:0\(position):20.123456Z"), "actor": .string(actor), "app": "com.example.kidsdraw",
             "sentence": .string(sentence), "changedState": .bool(changed), "state": state]
        }
        let steps: [JSONValue] = [
            step(1, "EligibilityChecked", "The app checked eligibility: age features apply.", changed: false, nil),
            step(3, "AgeRangeShared", "An age range was shared: 13 to 15, category 13to15, declared guardianDeclared.",
                 actor: "guardian", changed: true, state()),
            step(5, "PermissionQuestionSent", "A parent was asked (question 6c1e8a52-…, via askCenter) about the significant update \"Draw <together>\".",
                 changed: true, state(consents: [consent("pending", evidence: [5])])),
            step(6, "ParentalAnswerReceived", "A parent answered question 6c1e8a52-…: approval (\"Allow\"), by message; guardian g_2b81d4.",
                 actor: "guardian g_2b81d4", changed: true, state(consents: [approved])),
            step(7, "AccessGateApplied", "The app OPENED feature sharedRooms (policy 2026-11), citing 2 events.",
                 changed: true, state(consents: [approved], features: [open])),
            step(8, "AccessGateApplied", "The app CLOSED feature sharedRooms (policy 2026-11).",
                 changed: true, state(consents: [approved], features: [.object(closed)])),
            step(9, "SubjectErased", "The subject was erased: their key was destroyed.",
                 actor: "operator", changed: true, state(consents: [approved], features: [.object(closed)], erased: true)),
        ]
        return try sealed([
            "report": "subject-dossier",
            "parameters": ["log": "demo", "subject": "p_7f3a9c", "asOf": 738, "dateOfIssue": nil],
            "notices": [],
            "ledger": ["log": "demo", "position": 738, "headHash": .string(headHash)],
            "software": "consent-ledger/0.1.0",
            "columns": ["position", "eventId", "type", "stream", "occurredAt", "recordedAt", "actor", "app", "sentence", "changedState", "state"],
            "stepCount": .number(Double(steps.count)),
            "steps": .array(steps),
            "findings": [["rule": "access-opened-without-basis", "kind": "violation", "position": 5,
                          "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d05", "detail": "drawing was opened for p_7f3a9c citing no event",
                          "evidencePositions": [5], "needsReview": nil],
                         ["rule": "access-without-approval", "kind": "violation", "position": 7,
                          "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d07",
                          "detail": "com.example.kidsdraw opened sharedRooms to a minor (13to15) with no approval on record for change c-rooms",
                          "evidencePositions": [2, 3, 7],
                          "needsReview": "the version the subject first used the app at is not on record"]],
            "citedEvents": [["position": 2, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d02", "type": "SignificantChangeDeclared",
                             "stream": "app-com.example.kidsdraw", "occurredAt": "2026-09-01T08:00:00Z",
                             "recordedAt": "2026-09-01T08:00:01.000000Z", "actor": "app", "app": "com.example.kidsdraw",
                             "sentence": "The app declared significant change c-rooms (version 3.0.0).", "inclusionProof": .null]],
        ])
    }

    // MARK: Regulator report

    /// A quarter in Texas at a mid-sized tenant, following docs/reports/regulator.schema.json.
    static let regulatorJSON = #"""
        {
          "report": "regulator",
          "notices": [],
          "parameters": {"log": "acme-kids", "jurisdiction": "US-TX", "from": "2026-07-01T00:00:00Z", "to": "2026-10-01T00:00:00Z", "asOf": 48213},
          "ledger": {"log": "acme-kids", "position": 48213, "headHash": "9a0d09fefdfc99af4a6208290dfc84ad4a51da019d0eca14010298f2fb649021"},
          "software": "consent-ledger/0.1.0",
          "policy": {
            "source": "file sha256:3b7e21c4d0a9f8e6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2",
            "policyId": "acme-consent", "policyVersion": "2026-07",
            "rules": [{"rule": "access-without-approval", "enabled": true, "jurisdictions": null},
                      {"rule": "access-opened-without-basis", "enabled": false, "jurisdictions": null},
                      {"rule": "unverified-adult-access", "enabled": true, "jurisdictions": ["US-TX", "US-UT"]}],
            "rescissionEnforcementWindowHours": 24,
            "retention": {"policyId": "retention-2026-01",
                          "statement": "Age signals and consent records are kept for 3 years after the account closes, then erased by destroying the subject's key."}
          },
          "scope": {"code": "US-TX", "name": "Texas", "kind": "subdivision", "members": ["US-TX"], "withSubdivisions": false,
                    "membersAsOf": null, "codesTakenIn": 1,
                    "eventsInPeriod": 31877, "eventsInJurisdiction": 12904, "eventsWithoutJurisdiction": 211, "eventsWithUnknownJurisdiction": 7,
                    "eventsByEnvironment": [{"key": "production", "count": 12610}, {"key": "sandbox", "count": 240},
                                            {"key": "development", "count": 12}, {"key": "not stated", "count": 42}],
                    "unknownCodes": [{"code": "TX", "events": 7, "evidencePositions": [30117], "evidenceEventIds": ["0d15ea5e-0000-4000-8000-000000030117"]}]},
          "ageSignals": {
            "eligibilityChecks": [{"key": "eligible", "count": 1210}, {"key": "notEligible", "count": 2240}, {"key": "notAvailable", "count": 31}],
            "requestsByTrigger": [{"key": "download", "count": 1495}, {"key": "launch", "count": 1702}, {"key": "accountCreation", "count": 88},
                                  {"key": "significantChange", "count": 164}, {"key": "anniversaryRecheck", "count": 41}, {"key": "purchase", "count": 12},
                                  {"key": "backfill", "count": 318}, {"key": "other", "count": 0}],
            "responsesByCategory": [{"key": "under13", "declaredAgeRange": 46, "play": 12, "count": 58},
                                    {"key": "13to15", "declaredAgeRange": 88, "play": 20, "count": 108},
                                    {"key": "16to17", "declaredAgeRange": 61, "play": 25, "count": 86},
                                    {"key": "18toMajority", "declaredAgeRange": 0, "play": 0, "count": 0},
                                    {"key": "adult", "declaredAgeRange": 410, "play": 77, "count": 487},
                                    {"key": "unknown", "declaredAgeRange": 9, "play": 4, "count": 13}],
            "responsesByDeclaration": [{"key": "selfDeclared", "count": 402}, {"key": "guardianDeclared", "count": 171},
                                       {"key": "confirmed", "count": 36}, {"key": "governmentIDChecked", "count": 5}],
            "responsesByParentalControl": [{"key": "communicationLimits", "count": 61}, {"key": "significantAppChangeApprovalRequired", "count": 97},
                                           {"key": "none", "count": 451}],
            "declines": 57,
            "failures": [{"key": "invalidRequest", "count": 2}, {"key": "notAvailable", "count": 19}],
            "playSignalsByStatus": [{"key": "VERIFIED", "count": 61}, {"key": "SUPERVISED", "count": 49}, {"key": "SUPERVISED_APPROVAL_PENDING", "count": 8},
                                    {"key": "SUPERVISED_APPROVAL_DENIED", "count": 2}, {"key": "UNKNOWN", "count": 4}, {"key": "DECLARED", "count": 14}],
            "ageChecksByMethod": [{"key": "appAgeGate", "passed": 31, "failed": 4, "inconclusive": 0, "count": 35},
                                  {"key": "thirdPartyEstimation", "passed": 6, "failed": 1, "inconclusive": 2, "count": 9},
                                  {"key": "thirdPartyDocument", "passed": 3, "failed": 0, "inconclusive": 0, "count": 3},
                                  {"key": "thirdPartyPayment", "passed": 0, "failed": 0, "inconclusive": 0, "count": 0}]
          },
          "consent": {
            "questionsSent": 162, "approved": 120, "denied": 19, "expired": 14, "failed": 3, "pendingAtPeriodEnd": 6,
            "oldestPending": {"questionId": "b0762b4e-9ed7-451f-b71b-4a0819bb57e9", "subject": "p_df119622", "askedAt": "2026-09-21T22:00:00Z",
                              "ageSeconds": 784800, "evidencePositions": [47190], "evidenceEventIds": ["31932e96-cbee-4c75-b6a7-f46dad979fca"]},
            "timeToAnswer": {"answered": 139, "medianSeconds": 8460, "p95Seconds": 301320},
            "timeToAnswerDistribution": [
              {"label": "under 1 hour", "fromSeconds": 0, "toSeconds": 3600, "count": 41},
              {"label": "1 to 6 hours", "fromSeconds": 3600, "toSeconds": 21600, "count": 52},
              {"label": "6 to 24 hours", "fromSeconds": 21600, "toSeconds": 86400, "count": 30},
              {"label": "1 to 3 days", "fromSeconds": 86400, "toSeconds": 259200, "count": 12},
              {"label": "3 to 7 days", "fromSeconds": 259200, "toSeconds": 604800, "count": 3},
              {"label": "7 days or more", "fromSeconds": 604800, "toSeconds": null, "count": 1}],
            "outcomesByWeek": [
              {"weekStart": "2026-06-29", "sent": 5, "approved": 3, "denied": 1, "expired": 1, "failed": 0, "pending": 0},
              {"weekStart": "2026-07-06", "sent": 13, "approved": 9, "denied": 2, "expired": 1, "failed": 1, "pending": 0},
              {"weekStart": "2026-07-13", "sent": 15, "approved": 12, "denied": 1, "expired": 2, "failed": 0, "pending": 0},
              {"weekStart": "2026-07-20", "sent": 11, "approved": 8, "denied": 3, "expired": 0, "failed": 0, "pending": 0},
              {"weekStart": "2026-07-27", "sent": 0, "approved": 0, "denied": 0, "expired": 0, "failed": 0, "pending": 0},
              {"weekStart": "2026-08-03", "sent": 20, "approved": 14, "denied": 2, "expired": 3, "failed": 1, "pending": 0},
              {"weekStart": "2026-08-10", "sent": 12, "approved": 11, "denied": 0, "expired": 1, "failed": 0, "pending": 0},
              {"weekStart": "2026-08-17", "sent": 10, "approved": 7, "denied": 1, "expired": 2, "failed": 0, "pending": 0},
              {"weekStart": "2026-08-24", "sent": 12, "approved": 10, "denied": 2, "expired": 0, "failed": 0, "pending": 0},
              {"weekStart": "2026-08-31", "sent": 20, "approved": 16, "denied": 3, "expired": 1, "failed": 0, "pending": 0},
              {"weekStart": "2026-09-07", "sent": 17, "approved": 13, "denied": 1, "expired": 2, "failed": 1, "pending": 0},
              {"weekStart": "2026-09-14", "sent": 13, "approved": 9, "denied": 2, "expired": 1, "failed": 0, "pending": 1},
              {"weekStart": "2026-09-21", "sent": 10, "approved": 6, "denied": 1, "expired": 0, "failed": 0, "pending": 3},
              {"weekStart": "2026-09-28", "sent": 4, "approved": 2, "denied": 0, "expired": 0, "failed": 0, "pending": 2}],
            "rescissions": {"count": 7, "enforcedWithinWindow": 6, "enforcedLate": 0, "notEnforced": 1,
                            "medianSecondsToEnforcement": 16, "maxSecondsToEnforcement": 3540,
                            "told": 2, "medianSecondsToTell": 3, "maxSecondsToTell": 4,
                            "withdrawals": [
                              {"position": 1201, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e01", "subject": "p_84b258dc",
                               "rescindedAt": "2026-08-12T10:00:00Z",
                               "told": {"position": 1202, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e02", "at": "2026-08-12T10:00:02Z", "secondsAfterRescission": 2},
                               "closed": {"position": 1204, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e04", "at": "2026-08-12T10:00:16Z", "secondsAfterRescission": 16}},
                              {"position": 1350, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e05", "subject": "p_2b81d4aa",
                               "rescindedAt": "2026-09-02T18:00:00Z",
                               "told": {"position": 1351, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e06", "at": "2026-09-02T18:00:04Z", "secondsAfterRescission": 4},
                               "closed": null},
                              {"position": 1402, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e07", "subject": "p_a8b91a15",
                               "rescindedAt": "2026-09-10T07:30:00Z", "told": null,
                               "closed": {"position": 1410, "eventId": "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3e08", "at": "2026-09-10T08:29:00Z", "secondsAfterRescission": 3540}}]},
            "storeConsentStatus": [{"key": "obtained", "count": 88}, {"key": "notObtained", "count": 3}, {"key": "pending", "count": 2},
                                   {"key": "revoked", "count": 1}, {"key": "notRequired", "count": 0}]
          },
          "significantChanges": [
            {"changeId": "v3.0", "app": "com.example.kidsdraw", "introducedInVersion": "3.0.0", "declaredAt": "2026-06-20T09:00:00Z",
             "notifiedToStoreAt": "2026-06-20T09:10:00Z",
             "minorsAsked": 94, "approved": 71, "denied": 11, "adultsAcknowledged": 208, "evidencePositions": [30112, 30118],
             "evidenceEventIds": ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d04", "0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0c"]},
            {"changeId": "quizquest-5.3.0", "app": "com.example.quizquest", "introducedInVersion": null, "declaredAt": "2026-08-12T17:37:30Z",
             "notifiedToStoreAt": null, "minorsAsked": 41, "approved": 33, "denied": 5, "adultsAcknowledged": 96, "evidencePositions": [39870],
             "evidenceEventIds": ["46ac6cc3-8f2b-443c-874b-7a0b0967f5f7"]}
          ],
          "exceptions": {
            "installsByOutcome": [{"key": "installed", "count": 140}, {"key": "ratingRestricted", "count": 12},
                                  {"key": "ageRatingExceptionNotNeeded", "count": 1}, {"key": "cancelled", "count": 23}],
            "deviceRatingLimits": [{"key": "4+", "count": 3}, {"key": "9+", "count": 20}, {"key": "13+", "count": 31}, {"key": "16+", "count": 12},
                                   {"key": "18+", "count": 0}, {"key": "noLimit", "count": 40}],
            "approveInPerson": {"presented": 7, "failed": 1},
            "requested": 23, "approvedByMessage": 9, "approvedInPerson": 6, "declined": 5,
            "byRatedAge": [{"ratedAge": "4+", "requested": 0, "approved": 0, "declined": 0}, {"ratedAge": "9+", "requested": 2, "approved": 2, "declined": 0},
                           {"ratedAge": "13+", "requested": 7, "approved": 5, "declined": 1}, {"ratedAge": "16+", "requested": 9, "approved": 5, "declined": 3},
                           {"ratedAge": "18+", "requested": 5, "approved": 3, "declined": 1}, {"ratedAge": "unrated", "requested": 0, "approved": 0, "declined": 0}]
          },
          "violations": [
            {"rule": "access-without-approval",
             "description": "A feature was opened to a minor whose parents must approve significant changes, while a significant change of the app was in force, with no approval of that change on record (or the approval had been rescinded).",
             "subject": "p_84b258dc", "subjectErased": false, "occurredAt": "2026-07-03T15:47:54Z", "position": 31002,
             "eventId": "4d81d61e-7920-4b12-b749-e3500819229c", "detail": "com.example.kidsdraw opened chat to a minor <b>under13</b> with no approval on record for change v3.0",
             "evidencePositions": [30112, 31002], "evidenceEventIds": ["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d04", "4d81d61e-7920-4b12-b749-e3500819229c"], "needsReview": "the version the subject first used the app at is not on record"},
            {"rule": "answer-after-question-expired",
             "description": "A parental answer was recorded after the question had expired (a QuestionExpired event came first).",
             "subject": "p_51be07c2", "subjectErased": true, "occurredAt": "2026-08-19T08:12:40Z", "position": 40211,
             "eventId": "9b1d3c55-2e6f-4a7b-8c9d-0e1f2a3b4c5d", "detail": "question 2f9a… answered 3 h after it expired",
             "evidencePositions": [39990, 40211], "evidenceEventIds": ["a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "9b1d3c55-2e6f-4a7b-8c9d-0e1f2a3b4c5d"], "needsReview": null},
            {"rule": "rescission-not-enforced",
             "description": "A parent's consent was rescinded (App Store RESCIND_CONSENT) and no AccessGateApplied closed the app's feature for the child within the policy window.",
             "subject": null, "subjectErased": false, "occurredAt": "2026-09-02T11:00:00Z", "position": 44380,
             "eventId": "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b", "detail": "no AccessGateApplied within 24 hours of the rescission",
             "evidencePositions": [44380], "evidenceEventIds": ["5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"], "needsReview": null}
          ],
          "coverage": {"title": "Coverage (Texas SB 2420)",
                       "laws": [{"id": "us-tx-sb2420", "title": "Texas SB 2420 (App Store Accountability Act)",
                                 "citation": "Texas SB 2420, 89th Legislature (2025); Texas Business and Commerce Code, chapter 121", "jurisdictions": ["US-TX"],
                                 "effective": "2026-01-01", "inForce": [{"from": "2026-05-28", "to": null}],
                                 "status": "Enjoined 2025-12-23; the Fifth Circuit stayed the injunction on 2026-05-28.", "statusChecked": "2026-11-28"}],
                       "lawsForParts": [], "lawsNotInForce": [],
                       "installs": 1840, "requestedAtDownload": 1495, "requestedAtLaunch": 1702, "shareAtDownload": 0.8125, "shareAtLaunch": 0.925,
                       "backfill": {"existingInstalls": 345, "withAgeSignal": 301, "share": 0.8725, "backfillRequests": 318}},
          "retention": {
            "title": "Retention and erasure (COPPA)",
            "laws": [{"id": "us-coppa", "title": "COPPA (Children's Online Privacy Protection Act)",
                      "citation": "15 U.S.C. 6501-6506; FTC rule 16 CFR Part 312 (312.5 parental consent, 312.10 data retention)", "jurisdictions": ["US"],
                      "effective": "2000-04-21", "inForce": [{"from": null, "to": null}], "status": "In force.", "statusChecked": "2026-11-28"}],
            "lawsForParts": [],
            "lawsNotInForce": [],
            "policy": {"policyId": "retention-2026-01",
                       "statement": "Age signals and consent records are kept for 3 years after the account closes, then erased by destroying the subject's key."},
            "retentionApplied": [{"policyId": "retention-2026-01", "scope": "accounts closed before 2023-07-01", "reason": "scheduled retention run",
                                  "cutoff": "2023-07-01T00:00:00Z", "subjects": 14, "occurredAt": "2026-07-01T02:00:00Z",
                                  "evidencePositions": [30205], "evidenceEventIds": ["c0ffee00-1234-4abc-8def-0123456789ab"]}],
            "erasures": [{"subject": "p_51be07c2", "reason": "parent's deletion request", "occurredAt": "2026-09-14T10:00:00Z",
                          "evidencePositions": [45501], "evidenceEventIds": ["d00dfeed-4321-4cba-9fed-ba9876543210"]}]
          },
          "integrity": {"checkpoint": {"treeSize": 48000, "rootHash": "5f0c3a4e1d2b6a7988c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5",
                                       "chainHash": "7e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091",
                                       "origin": "ledger.acme-kids.example/acme-kids", "keyName": "ledger.acme-kids.example",
                                       "keyId": "1a2b3c4d", "verifierKey": "ledger.acme-kids.example+1a2b3c4d+AQ==",
                                       "signedAt": "2026-09-30T23:00:00.000000Z",
                                       "note": "ledger.acme-kids.example/acme-kids\n48000\nXww6Th0rank=\n\n\u2014 ledger.acme-kids.example GistTQ==\n"},
                        "verifiedFrom": 48001, "verifiedThrough": 48213, "citedProved": 3,
                        "projectionsProven": {"verifiedAt": "2026-10-01T02:00:00Z", "position": 48100}, "passed": true, "problem": null,
                        "method": "the checkpoint's signature, root and chain hash checked; positions 48001 to 48213 re-hashed"},
          "sha256": "0000000000000000000000000000000000000000000000000000000000000000"
        }
        """#

    /// The regulator sample, changed by `edit` before sealing; `quiet`: a period in which no
    /// question was sent and nothing was found.
    static func regulator(quiet: Bool = false, edit: (inout [String: JSONValue]) -> Void = { _ in }) throws -> JSONValue {
        guard case .object(var report) = try JSONParser.parse(regulatorJSON) else { throw LedgerError(.invalidJSON, "sample") }
        if quiet {
            guard case .object(var consent)? = report["consent"] else { throw LedgerError(.invalidJSON, "sample") }
            for key in ["questionsSent", "approved", "denied", "expired", "failed", "pendingAtPeriodEnd"] { consent[key] = 0 }
            consent["oldestPending"] = .null
            consent["timeToAnswer"] = ["answered": 0, "medianSeconds": nil, "p95Seconds": nil]
            consent["timeToAnswerDistribution"] = .array(RegulatorVocabulary.timeToAnswerBuckets.map { bucket in
                ["label": .string(bucket.label), "fromSeconds": .number(Double(bucket.from)),
                 "toSeconds": bucket.to.map { .number(Double($0)) } ?? nil, "count": 0]
            })
            consent["outcomesByWeek"] = .array((consent["outcomesByWeek"]?.arrayValue ?? []).map { week in
                ["weekStart": week["weekStart"] ?? nil, "sent": 0, "approved": 0, "denied": 0, "expired": 0, "failed": 0, "pending": 0]
            })
            consent["rescissions"] = ["count": 0, "enforcedWithinWindow": 0, "enforcedLate": 0, "notEnforced": 0,
                                      "medianSecondsToEnforcement": nil, "maxSecondsToEnforcement": nil,
                                      "told": 0, "medianSecondsToTell": nil, "maxSecondsToTell": nil, "withdrawals": []]
            report["consent"] = .object(consent)
            report["violations"] = []
            report["significantChanges"] = []
        }
        edit(&report)
        return try sealed(report)
    }

    // MARK: Reading pages

    /// The `<figure>` of the chart with `id`.
    static func figure(_ html: String, id: String) -> String? {
        html.components(separatedBy: "<figure class=\"chart\" id=\"\(id)\">").dropFirst().first?
            .components(separatedBy: "</figure>").first
    }

    /// How many times `needle` occurs in `haystack`.
    static func count(_ needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }

    /// The report as JSON text with every object's members in reverse order and whitespace
    /// between tokens: the same value, parsed from different bytes.
    static func reversedJSON(_ value: JSONValue) -> String {
        switch value {
        case .array(let items): return "[ " + items.map(reversedJSON).joined(separator: " , ") + " ]"
        case .object(let members):
            return "{ " + members.keys.sorted(by: >).map { CanonicalJSON.encodeString(.string($0)) + " : " + reversedJSON(members[$0]!) }
                .joined(separator: " , ") + " }"
        default: return CanonicalJSON.encodeString(value)
        }
    }
}
