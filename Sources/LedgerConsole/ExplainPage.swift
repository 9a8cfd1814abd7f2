import Foundation
import LedgerCore
import LedgerReportHTML

/// "Why was this feature open?": each app's decision on the feature for the subject as of a point,
/// the events it cited, the subject's age then, the parent's answers on record, the rules that
/// judged it, and any later rescission, every event linked (what `consent-ledger explain` prints).
public enum ExplainPage {
    /// The page of `answer` for the signed-in `key`.
    public static func render(_ answer: FeatureExplanation, key: APIKey) -> String {
        let log = answer.log
        func link(_ position: Int64) -> HTML { "<a href=\"/console/logs/\(log)/events/\(Int(position))\">#\(Int(position))</a>" }
        // Every event id the page may meet, so that a sentence's ids read as links to positions.
        var positions: [String: Int64] = [:]
        for d in answer.decisions {
            for e in [d.gate] + d.cited + d.laterRescissions { positions[e.eventId.lowercased()] = e.position }
        }
        func said(_ text: String) -> HTML { Self.words(text, log: log, positions: positions) }
        func event(_ e: ReplayedEvent) -> HTML {
            "\(link(e.position)) <span title=\"\(e.type)\">\(ReportLabels.words(e.type))</span> (device clock \(e.occurredAt)): \(said(Self.sentence(e.sentence)))"
        }
        let decisions = answer.decisions.map { d -> HTML in
            let cited: HTML = d.cited.isEmpty && d.citedProblems.isEmpty ? "<p>It cited no event.</p>" : """
                <p>It cited:</p><ul>\(d.cited.map { e -> HTML in "<li>\(event(e))</li>" })\(d.citedProblems.map { p -> HTML in "<li class=\"problem\">\(said(p))</li>" })</ul>
                """
            let age: HTML
            if let judged = d.judgedOn {
                age = "<p>What the rules judged it on:</p><ul>\(judged.lines.map { line -> HTML in "<li>\(said(Self.sentence(line)))</li>" })</ul>"
            } else if case .object = d.ageAtDecision {
                let approval = d.ageAtDecision["approvalRequired"]?.boolValue == true ? "; parents must approve significant changes" : ""
                let signal = Int64(d.ageAtDecision["position"]?.intValue ?? 0)
                age = "<p>The subject then: \(ReportLabels.labelled(d.ageAtDecision["category"]?.stringValue ?? "unknown"))\(approval) (age signal \(link(signal))).</p>"
            } else {
                age = "<p>The subject then: no age signal on record.</p>"
            }
            let failed = d.rules.filter { $0.outcome == .failed }
            let rules: HTML = failed.isEmpty
                ? (d.rules.isEmpty ? "<p>No rule of the ledger judges this decision.</p>" : "<p class=\"ok\">The ledger's rules found nothing wrong with this decision.</p>")
                : """
                <p>Rules broken (docs/rules.md):</p>
                <ul>\(failed.map { c -> HTML in "<li class=\"problem\"><strong title=\"\(c.rule)\">\(ReportLabels.rule(c.rule))</strong>: \(said(c.detail)) (evidence \(HTML.join(c.evidence.map(link), separator: ", ")))</li>" })</ul>
                """
            let passed = d.rules.filter { $0.outcome == .passed }.map(\.rule)
            return """
            <section class="decision">
            <h2>\(d.app.isEmpty ? "(no app named)" : d.app): <span class="state">\(d.state)</span></h2>
            <p>Since \(event(d.gate))</p>
            \(cited)
            \(age)
            \(d.parentalAnswers.map { a -> HTML in "<p>Parent's answer on record before it: \(said(Self.sentence(a)))</p>" })
            \(rules)
            \(passed.isEmpty ? HTML.empty : HTML("<p>Rules passed: \(HTML.join(passed.map { r -> HTML in "<span title=\"\(r)\">\(ReportLabels.rule(r))</span>" }, separator: ", ")).</p>"))
            \(d.laterRescissions.map { r -> HTML in "<p class=\"problem\">After it, \(event(r)) The feature stayed open.</p>" })
            </section>
            """
        }
        let none: HTML = answer.decisions.isEmpty ? """
            <p id="explain-none">Closed: no app applied an access gate to this feature by then, so the ledger has no record of it ever being opened.
            \(answer.otherFeatures.isEmpty ? "The subject had no gated features by then." : HTML(text: "Features gated for this subject by then: \(answer.otherFeatures.map(ReportLabels.words).joined(separator: ", ")).")) </p>
            """ : .empty
        return ConsolePage.document(title: "Why was \(ReportLabels.words(answer.feature)) \(answer.decisions.contains { $0.state == "open" } ? "open" : "closed")?", key: key, log: log, body: """
            <p>Feature <strong title="\(answer.feature)" id="explain-feature">\(ReportLabels.words(answer.feature))</strong> for subject
            <a href="/console/logs/\(log)/subjects/\(answer.subject)">\(answer.subject)</a>, as of \(answer.asOf.description)
            (through position \(Int(answer.throughPosition))).</p>
            \(none)
            \(answer.decisions.isEmpty ? HTML.empty : HTML("<div id=\"explain\">\(decisions)</div>"))
            """)
    }

    /// `text` as one sentence: a capital first unless it starts with an identifier (a bundle id,
    /// `exception-ex-…`, which keep their spelling), one full stop at the end (none added after a
    /// `.`, `!` or `?`: never "..").
    static func sentence(_ text: String) -> String {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("..") { trimmed.removeLast() }
        guard let last = trimmed.last else { return "" }
        let firstWord = trimmed.prefix { $0 != " " }
        let capitalised = firstWord.allSatisfy(\.isLetter) ? trimmed.prefix(1).uppercased() + trimmed.dropFirst() : trimmed
        return ".!?".contains(last) ? capitalised : capitalised + "."
    }

    /// `text` as a reader sees it: an event id becomes a link to its position (any other id, a
    /// question's, its first characters, the whole in the title), a `#N` a link to the event at N,
    /// a key (`13to15`, `guardianDeclared`) its words (``ConsoleWords/prose(_:)``).
    static func words(_ text: String, log: String, positions: [String: Int64]) -> HTML {
        let pattern = #/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|#([0-9]+)/#
        var html: HTML = .empty
        var rest = Substring(text)
        func plain(_ piece: Substring) -> HTML { ConsoleWords.prose(String(piece)) }
        while let match = rest.firstMatch(of: pattern) {
            html += plain(rest[rest.startIndex..<match.range.lowerBound])
            if let id = match.output.1 {
                if let position = positions[id.lowercased()] {
                    html += "<a href=\"/console/logs/\(log)/events/\(Int(position))\" title=\"event \(String(id))\">#\(Int(position))</a>"
                } else {
                    html += "<code class=\"id\" title=\"\(String(id))\">\(String(id.prefix(8)))…</code>"
                }
            } else if let number = match.output.2, let position = Int(number) {
                html += "<a href=\"/console/logs/\(log)/events/\(position)\">#\(position)</a>"
            }
            rest = rest[match.range.upperBound...]
        }
        return html + plain(rest)
    }
}
