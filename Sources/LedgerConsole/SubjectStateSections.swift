import Foundation
import LedgerCore
import LedgerReportHTML

/// A subject's state (the snapshot `state` and the dossier print, projections/reports/dossier/
/// snapshot.sql) as sections a compliance officer reads without help: age, parental controls, age
/// signals, gated features (each with "why?"), questions to parents and exceptions, findings, and
/// what the device and the stores said; every key in words from ``ReportLabels`` (the key itself
/// in a `title`), every position a link to its event. The JSON itself stays one click away, in a
/// collapsed "raw JSON" element for engineers.
public enum SubjectStateSections {
    /// Where the links go: the log, the subject, and the as-of point the page shows.
    public struct Context: Sendable {
        /// The log.
        public var log: String
        /// The subject.
        public var subject: String
        /// The as-of text the page was asked for (empty: the head).
        public var asOfText: String
        /// Its clock.
        public var clock: AsOf.Clock

        /// A context from its parts.
        public init(log: String, subject: String, asOfText: String, clock: AsOf.Clock) {
            self.log = log
            self.subject = subject
            self.asOfText = asOfText
            self.clock = clock
        }
    }

    /// The sections of `state`, with the subject's `findings` up to the same point.
    public static func render(_ state: JSONValue, findings: [AnomalyFindings.Finding], context: Context) -> HTML {
        func link(_ position: Int?) -> HTML {
            guard let position else { return "<span class=\"empty\">—</span>" }
            return "<a class=\"nowrap\" href=\"/console/logs/\(context.log)/events/\(position)\">position \(position)</a>"
        }
        var html: [HTML] = []
        if state["erased"]?.boolValue == true {
            html.append("<p class=\"alert\" id=\"state-erased\">This subject was erased: the key that sealed their personal data was destroyed.</p>")
        }
        html.append(section("age", "Age", facts([("Age category", age(state["age"] ?? .null, link: link)),
                                                ("Parental controls", controls(state["parentalControls"] ?? .null))])))
        let signals = state["signals"]?.arrayValue ?? []
        html.append(section("signals", "Age signals by platform", signals.isEmpty ? empty("No age signal on record.") : table(
            ["Platform", "Latest outcome", "Age category", "Evidence"],
            signals.map { s in [text(s["platform"]), label(s["outcome"]), label(s["category"]), link(s["position"]?.intValue)] })))
        let features = state["features"]?.arrayValue ?? []
        let explainBase = "/console/logs/\(context.log)/subjects/\(context.subject)/explain"
        let asOf: HTML = "&amp;asOf=\(context.asOfText.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&amp;clock=\(context.clock.rawValue)"
        html.append(section("features", "Gated features", features.isEmpty ? empty("No feature was gated for this subject.") : table(
            ["App", "Feature", "State", "Policy", "Evidence", "Why?"],
            features.map { f in
                let feature = f["feature"]?.stringValue ?? ""
                let encoded = feature.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? feature
                return [app(f["app"]), label(f["feature"]), "<strong>\(f["state"]?.stringValue ?? "—")</strong>", text(f["policyVersion"]),
                        link(f["position"]?.intValue),
                        "<a href=\"\(explainBase)?feature=\(encoded)\(asOf)\">Why was it \(f["state"]?.stringValue ?? "so")?</a>"]
            })))
        let consents = state["consents"]?.arrayValue ?? []
        html.append(section("consents", "Questions to parents and their answers", consents.isEmpty
            ? empty("No question was sent and no age-rating exception requested for this subject.") : table(
            ["Asked", "App", "About", "Status", "Answered by", "Evidence"],
            consents.map { c in
                let kind = c["kind"]?.stringValue == "exception" ? "Age-rating exception" : "Question"
                var about: [HTML] = []
                if let topic = c["topic"]?.stringValue { about.append(ReportLabels.labelled(topic)) }
                if let change = c["changeId"]?.stringValue { about.append("change <code>\(change)</code>") }
                if let rated = c["ratedApp"]?.intValue { about.append("rated app \(rated)") }
                let status = c["status"]?.stringValue ?? ""
                let evidence = (c["evidence"]?.arrayValue ?? []).compactMap(\.intValue).map { link($0) }
                return ["\(kind) \(short(c["id"]?.stringValue ?? ""))", app(c["app"]),
                        about.isEmpty ? "<span class=\"empty\">—</span>" : HTML.join(about, separator: ", "),
                        "<span class=\"status \(status)\">\(ReportLabels.status(status))</span>", answered(c),
                        evidence.isEmpty ? "<span class=\"empty\">none cited</span>" : HTML.join(evidence, separator: ", ")]
            })))
        let findingItems = findings.map { finding -> HTML in
            """
            <li class="finding \(finding.kind.rawValue)"><strong>\(finding.kind == .violation ? "Violation" : "Anomaly")</strong>:
            <span title="\(finding.rule)">\(ReportLabels.rule(finding.rule))</span>, found at \(link(Int(finding.position))). \(ConsoleWords.prose(sentence(finding.detail)))</li>
            """
        }
        let findingList: HTML = "<ul class=\"subject-findings\">\(findingItems)</ul>"
        html.append(section("findings", "Findings of the ledger's rules", findings.isEmpty
            ? empty("The ledger's rules found nothing about this subject's events up to this point.") : findingList))
        let facts = state["appFacts"]?.arrayValue ?? []
        html.append(section("app-facts", "What the device and the stores said", facts.isEmpty
            ? empty("Nothing on record from the device or the stores about this subject's apps.") : table(
            ["App", "Fact", "Value", "Details", "Evidence"],
            facts.map { f in
                // The device's rating limit's detail is its number in Apple's scale, which its label already says.
                let details = f["fact"]?.stringValue == "deviceRatingLimit" ? [] : (f["detail"]?.arrayValue ?? []).compactMap(\.stringValue)
                return [app(f["app"]), fact(f["fact"]?.stringValue ?? ""), label(f["value"]),
                        details.isEmpty ? "<span class=\"empty\">—</span>" : HTML.join(details.map { ReportLabels.labelled($0) }, separator: ", "),
                        link(f["position"]?.intValue)]
            })))
        html.append("""
            <details class="raw-json" id="state-json"><summary>Raw JSON of this state (for engineers)</summary>
            <pre>\(pretty(state))</pre>
            </details>
            """)
        return HTML.join(html, separator: "\n")
    }

    /// "13 to 15 (ages 13–15, guardian declared; from age range shared at position 12)", or a
    /// sentence saying there is no age signal yet.
    static func age(_ age: JSONValue, link: (Int?) -> HTML) -> HTML {
        guard let category = age["category"]?.stringValue else { return empty("No age signal yet.") }
        var details: [HTML] = []
        switch (age["lower"]?.intValue, age["upper"]?.intValue) {
        case let (l?, u?): details.append("ages \(l)–\(u)")
        case let (l?, nil): details.append("aged \(l) or over")
        case let (nil, u?): details.append("aged up to \(u)")
        case (nil, nil): break
        }
        if let declaration = age["declaration"]?.stringValue { details.append(ReportLabels.labelled(declaration)) }
        if age["verifiedAdult"]?.boolValue == true { details.append("verified adult") }
        var source: HTML = .empty
        if let type = age["source"]?.stringValue {
            source = "; from \(ReportLabels.labelled(type)) at \(link(age["position"]?.intValue))"
        }
        return "<strong>\(ReportLabels.labelled(category))</strong> (\(HTML.join(details, separator: ", "))\(source))"
    }

    /// The active parental controls in words, "none", or "not reported yet".
    static func controls(_ controls: JSONValue) -> HTML {
        guard let list = controls.arrayValue else { return "<span class=\"empty\">not reported yet</span>" }
        let names = list.compactMap(\.stringValue)
        return names.isEmpty ? "none" : HTML.join(names.map { ReportLabels.labelled($0) }, separator: ", ")
    }

    /// A fact's key in words: `storeConsent:purpose` as "store consent (purpose)", `install:123` as
    /// "install of app 123".
    static func fact(_ key: String) -> HTML {
        let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return ReportLabels.labelled(key) }
        let said = parts[1].allSatisfy(\.isNumber) ? "\(ReportLabels.words(parts[0])) of app \(parts[1])"
            : "\(ReportLabels.words(parts[0])) (\(ReportLabels.words(parts[1])))"
        return ReportLabels.labelled(key, words: said)
    }

    /// Who answered and how: "g_2b81… by message", "not disclosed, in person", or "not answered".
    static func answered(_ entry: JSONValue) -> HTML {
        let status = entry["status"]?.stringValue ?? ""
        let channel = entry["channel"]?.stringValue
        guard ["approval", "denial", "rescinded"].contains(status) || channel != nil else { return "<span class=\"empty\">not answered</span>" }
        let who: HTML = entry["answeredBy"]?.stringValue.map { "guardian \(short($0))" } ?? "not disclosed by the platform"
        switch channel {
        case "message"?: return who + ", by message"
        case "inPerson"?: return who + ", in person"
        case let other?: return who + ", \(ReportLabels.words(other))"
        case nil: return who
        }
    }

    /// A sentence that ends with one full stop, whatever `text` ends with.
    static func sentence(_ text: String) -> String { ExplainPage.sentence(text) }

    private static func label(_ value: JSONValue?) -> HTML {
        value?.stringValue.map { ReportLabels.labelled($0) } ?? "<span class=\"empty\">—</span>"
    }

    private static func text(_ value: JSONValue?) -> HTML {
        value?.stringValue.map { HTML(text: $0) } ?? "<span class=\"empty\">—</span>"
    }

    private static func app(_ value: JSONValue?) -> HTML {
        guard let app = value?.stringValue, !app.isEmpty else { return "<span class=\"empty\">no app named</span>" }
        return "<code class=\"id\">\(ConsolePage.breakable(app))</code>"
    }

    /// An id cut to its first characters, the whole in the title.
    private static func short(_ id: String) -> HTML {
        id.count <= 13 ? "<code class=\"id\">\(id)</code>" : "<code class=\"id\" title=\"\(id)\">\(String(id.prefix(12)))…</code>"
    }

    private static func empty(_ sentence: String) -> HTML { "<p class=\"empty\">\(sentence)</p>" }

    private static func section(_ id: String, _ title: String, _ body: HTML) -> HTML {
        """
        <section class="state-part" id="state-\(id)" aria-labelledby="state-\(id)-title">
        <h3 id="state-\(id)-title">\(title)</h3>
        \(body)
        </section>
        """
    }

    private static func facts(_ rows: [(String, HTML)]) -> HTML {
        "<dl class=\"facts\">\(rows.map { row -> HTML in "<dt>\(row.0)</dt><dd>\(row.1)</dd>" })</dl>"
    }

    private static func table(_ columns: [String], _ rows: [[HTML]]) -> HTML {
        """
        <table class="data state-table">
        <thead><tr>\(columns.map { c -> HTML in "<th scope=\"col\">\(c)</th>" })</tr></thead>
        <tbody>\(rows.map { row -> HTML in "<tr>\(row.map { cell -> HTML in "<td>\(cell)</td>" })</tr>" })</tbody>
        </table>
        """
    }

    /// The state as indented JSON, keys sorted.
    private static func pretty(_ state: JSONValue) -> String {
        let bytes = Data(CanonicalJSON.encode(state))
        guard let object = try? JSONSerialization.jsonObject(with: bytes),
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: pretty, as: UTF8.self)
    }
}
