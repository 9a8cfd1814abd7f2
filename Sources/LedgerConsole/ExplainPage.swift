import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportHTML

/// "Why was this feature open?": each app's decision on the feature for the subject as of a point,
/// the events it cited, the subject's age then, the parent's answers on record, the rules that
/// judged it, and any later rescission, every event linked (what `consent-ledger explain` prints).
public enum ExplainPage {
    /// The page of `answer` for the signed-in `key`.
    public static func render(_ answer: FeatureExplanation, key: APIKey) -> String {
        let log = answer.log
        func link(_ position: Int64) -> HTML { "<a href=\"/console/logs/\(log)/events/\(Int(position))\">#\(Int(position))</a>" }
        func event(_ e: ReplayedEvent) -> HTML { "\(link(e.position)) \(e.type), occurred \(e.occurredAt): \(e.sentence)" }
        let decisions = answer.decisions.map { d -> HTML in
            let cited: HTML = d.cited.isEmpty && d.citedProblems.isEmpty ? "<p>It cited no event.</p>" : """
                <p>It cited:</p><ul>\(d.cited.map { e -> HTML in "<li>\(event(e))</li>" })\(d.citedProblems.map { p -> HTML in "<li class=\"problem\">\(p)</li>" })</ul>
                """
            let age: HTML
            if let judged = d.judgedOn {
                age = "<p>What the rules judged it on:</p><ul>\(judged.lines.map { line -> HTML in "<li>\(line)</li>" })</ul>"
            } else if case .object = d.ageAtDecision {
                let approval = d.ageAtDecision["approvalRequired"]?.boolValue == true ? "; parents must approve significant changes" : ""
                let signal = Int64(d.ageAtDecision["position"]?.intValue ?? 0)
                age = "<p>The subject then: \(d.ageAtDecision["category"]?.stringValue ?? "unknown")\(approval) (age signal \(link(signal))).</p>"
            } else {
                age = "<p>The subject then: no age signal on record.</p>"
            }
            let failed = d.rules.filter { $0.outcome == .failed }
            let rules: HTML = failed.isEmpty
                ? (d.rules.isEmpty ? "<p>No rule of the ledger judges this decision.</p>" : "<p class=\"ok\">The ledger's rules found nothing wrong with this decision.</p>")
                : """
                <p>Rules broken (docs/rules.md):</p>
                <ul>\(failed.map { c -> HTML in "<li class=\"problem\"><code>\(c.rule)</code>: \(c.detail) (evidence \(HTML.join(c.evidence.map(link), separator: ", ")))</li>" })</ul>
                """
            let passed = d.rules.filter { $0.outcome == .passed }.map(\.rule)
            return """
            <section class="decision">
            <h2>\(d.app.isEmpty ? "(no app named)" : d.app): <span class="state">\(d.state.uppercased())</span></h2>
            <p>Since \(event(d.gate)).</p>
            \(cited)
            \(age)
            \(d.parentalAnswers.map { a -> HTML in "<p>Parent's answer on record before it: \(a)</p>" })
            \(rules)
            \(passed.isEmpty ? HTML.empty : HTML("<p>Rules passed: \(passed.joined(separator: ", ")).</p>"))
            \(d.laterRescissions.map { r -> HTML in "<p class=\"problem\">After it, \(event(r)) The feature stayed open.</p>" })
            </section>
            """
        }
        let none: HTML = answer.decisions.isEmpty ? """
            <p id="explain-none">CLOSED: no AccessGateApplied for this feature by then, so the ledger has no record of it ever being opened.
            \(answer.otherFeatures.isEmpty ? "The subject had no gated features by then." : HTML(text: "Features gated for this subject by then: \(answer.otherFeatures.joined(separator: ", ")).")) </p>
            """ : .empty
        return ConsolePage.document(title: "Why was \(answer.feature) \(answer.decisions.contains { $0.state == "open" } ? "open" : "closed")?", key: key, log: log, body: """
            <p>Feature <strong>\(answer.feature)</strong> for subject
            <a href="/console/logs/\(log)/subjects/\(answer.subject)">\(answer.subject)</a>, as of \(answer.asOf.description)
            (through position \(Int(answer.throughPosition))).</p>
            \(none)
            \(answer.decisions.isEmpty ? HTML.empty : HTML("<div id=\"explain\">\(decisions)</div>"))
            """)
    }
}
