import Foundation
import LedgerCore
import LedgerReportHTML

/// The violations and anomalies of a log, newest first, each with the rule it breaks (in plain
/// words, from the rules catalogue) and links to the event it was found on and every event it
/// rests on, in the subject's timeline.
public enum FindingsPage {
    /// How many findings a page shows.
    public static let pageSize = 100

    /// The page for the signed-in `key`. The newest page (`live`) keeps itself up to date: the
    /// console's script follows the findings stream after the newest finding shown.
    public static func render(log: String, kind: LedgerRule.Kind?, findings: [AnomalyFindings.Finding], key: APIKey, live: Bool = false) -> String {
        let base = "/console/logs/\(log)/findings"
        let items = findings.map { finding -> HTML in
            let rule = RuleCatalogue.rule(finding.rule)
            func link(_ position: Int64) -> HTML {
                "<a href=\"/console/logs/\(log)/events/\(Int(position))\">position \(Int(position))</a>"
            }
            return """
            <li class="finding \(finding.kind.rawValue)">
            <h3>\(finding.kind == .violation ? "Violation" : "Anomaly"): <span title="\(finding.rule)">\(ReportLabels.rule(finding.rule))</span> at \(link(finding.position))</h3>
            <p>\(ConsoleWords.prose(SubjectStateSections.sentence(finding.detail)))</p>
            \(rule.map { HTML("<details><summary>The rule</summary><p>\($0.statement)</p></details>") } ?? .empty)
            <p>Subject: \(finding.subject.map { HTML("<a href=\"/console/logs/\(log)/subjects/\($0)\">\($0)</a>") } ?? "none")</p>
            <p>Evidence: \(HTML.join(finding.evidence.map(link), separator: ", "))</p>
            </li>
            """
        }
        let filters = [(nil, "All"), (LedgerRule.Kind.violation, "Violations"), (.anomaly, "Anomalies")].map { (choice, label) -> HTML in
            let href = choice.map { "\(base)?kind=\($0.rawValue)" } ?? base
            return choice == kind ? "<li><strong aria-current=\"page\">\(label)</strong></li>" : "<li><a href=\"\(href)\">\(label)</a></li>"
        }
        let older: HTML = findings.count == pageSize
            ? "<p><a href=\"\(base)?\(kind.map { "kind=\($0.rawValue)&" } ?? "")before=\(Int(findings.last!.position))\">Older findings</a></p>" : .empty
        return ConsolePage.document(title: "Violations and anomalies", key: key, log: log, body: """
            <p>What the ledger's rules found, each decided when its event was folded and never changed since
            (docs/rules.md lists every rule and what it rests on). Each position leads to its event, where it can be
            proved in this browser.</p>
            <nav aria-label="Which findings"><ul class="filters">\(filters)</ul></nav>
            \(live ? HTML("<p id=\"live-status\" class=\"live-status\" role=\"status\" aria-live=\"polite\">Live updates starting…</p>") : .empty)
            \(findings.isEmpty ? "<p id=\"no-findings\">None.</p>" : .empty)
            <ol class="findings" id="findings"\(live ? HTML(" data-log=\"\(log)\" data-stream=\"\(stream(log: log, kind: kind, after: findings))\"") : .empty)>\(items)</ol>
            \(older)
            """)
    }

    /// The stream the live list follows: after the newest finding shown (the start of the log when
    /// none is), of the page's kind. (Interpolated into the page, it is escaped there.)
    static func stream(log: String, kind: LedgerRule.Kind?, after findings: [AnomalyFindings.Finding]) -> String {
        let newest = findings.max { a, b in
            a.position != b.position ? a.position < b.position : a.rule.utf8.lexicographicallyPrecedes(b.rule.utf8)
        }
        let after = newest.map { FindingsFeed.Cursor(position: $0.position, rule: $0.rule).description } ?? "0"
        return "/console/logs/\(log)/findings/stream?after=\(after)" + (kind.map { "&kind=\($0.rawValue)" } ?? "")
    }
}
