import LedgerCore
import LedgerReportModel
/// The subject dossier as an HTML page: the subject's history, one row per event with what
/// changed in the subject's state after it, then the state at the end in full.
/// Input: the report's document (``SubjectDossierDocument``), decoded from the JSON of
/// `consent-ledger report dossier` (docs/reports/subject-dossier.schema.json).
enum SubjectDossierHTML {
    typealias Step = SubjectDossierStep
    typealias Snapshot = SubjectDossierState

    /// The page of `report`, whose seal matched the JSON it was read from when `sealMatches`.
    static func render(_ report: SubjectDossierDocument, sealMatches: Bool, policy: ReportPolicy) throws -> String {
        let log = report.parameters.log
        let subject = report.parameters.subject
        let asOf = Int(report.parameters.asOf)
        let provenance = try ReportPage.Provenance(ledger: report.ledger, software: report.software, sha256: report.sha256,
                                                   sealMatches: sealMatches, reportName: "subject dossier")
        let stepCount = report.stepCount
        let steps = report.steps
        let final = steps.last?.state

        var body: HTML = .empty
        // What a reader must know before trusting the history comes before it (issue 39).
        var summary: HTML = ReportMarkup.notices(report.notices)
        summary += ReportMarkup.keyFigures([
            (ReportFormat.count(stepCount), stepCount == 1 ? "event" : "events"),
            (ReportFormat.count(steps.filter(\.changedState).count), "changed the state"),
            (final?.age.map { ReportLabels.words($0.category) } ?? "—", "age category at the end"),
            (ReportFormat.count(final?.consents.count ?? 0), "questions and exceptions"),
        ])
        if let erasure = steps.first(where: { $0.state?.erased == true }) {
            summary += "<p class=\"warning\">\(ReportMarkup.erasedMarker) This subject was erased at position \(erasure.position) "
                + "(\(ReportMarkup.time(erasure.occurredAt))): their key was destroyed, so their personal data can no longer be read. "
                + "The pseudonym and the facts below are not personal data and remain.</p>\n"
        }
        // By the devices' clocks, which need not follow the ledger's order: an event can reach it late.
        // The dossier's times are all UTC in one form (`2026-11-20T16:02:19Z`), so they sort as text.
        if let earliest = steps.min(by: { $0.occurredAt < $1.occurredAt }), let latest = steps.max(by: { $0.occurredAt < $1.occurredAt }),
           let first = steps.first, let last = steps.last {
            var sentence = "The history’s events occurred from \(ReportFormat.timestamp(earliest.occurredAt)) (position \(earliest.position)) "
                + "to \(ReportFormat.timestamp(latest.occurredAt)) (position \(latest.position)), by the devices’ clocks"
            if earliest.position != first.position || latest.position != last.position {
                sentence += "; the ledger recorded them from position \(first.position) to \(last.position), some later than they occurred"
            }
            summary += ReportMarkup.paragraph(sentence + ".")
        }
        if stepCount != steps.count {
            summary += ReportMarkup.paragraph("Note: the report says it has \(ReportFormat.count(stepCount)) steps but lists \(ReportFormat.count(steps.count)).",
                                              className: "warning")
        }
        body += ReportMarkup.section(
            id: "history", title: "History, event by event",
            intro: "In the order the ledger recorded them. “State after” says what the event changed in what the ledger knows about the subject; "
                + "“unchanged” means the event was recorded but changed nothing the ledger keeps. Each row’s evidence is its position (#) and event id.",
            steps.isEmpty ? ReportMarkup.paragraph("The dossier has no events for this subject up to position \(ReportFormat.count(asOf)).", className: "empty")
                          : history(steps))
        let findings = report.findings
        let violations = findings.filter { $0.kind == "violation" }.count
        summary += ReportMarkup.paragraph(findings.isEmpty ? "The ledger’s rules found nothing about this subject’s events."
            : "The ledger’s rules found \(ReportFormat.plural(violations, "violation")) and \(ReportFormat.plural(findings.count - violations, "anomaly", "anomalies")) (see Findings).")
        body += ReportMarkup.section(
            id: "findings", title: "Findings",
            intro: "What the ledger’s rules (docs/rules.md) found about this subject’s events: each rule’s id, the event judged and every event the finding rests on.",
            findings.isEmpty ? ReportMarkup.paragraph("None.", className: "empty") : findingsTable(findings))
        let cited = report.citedEvents
        if !cited.isEmpty {
            body += ReportMarkup.section(
                id: "cited-events", title: "Events the findings cite from outside this history",
                intro: "Evidence a finding rests on that is not one of the subject’s own events (a significant change is declared for an app, not for a subject), "
                    + "so that this dossier holds every event it cites. The JSON report carries each with its inclusion proof.",
                citedTable(cited))
        }
        body += ReportMarkup.section(id: "final-state", title: "State at position \(ReportFormat.count(asOf))",
                                     intro: "What the ledger knew about the subject after the last event above.", finalState(final))

        let page = ReportPage(
            documentTitle: "Subject dossier — \(subject), log \(log) at position \(asOf)",
            heading: "Subject dossier",
            subtitle: "Subject \(subject), log \(log), as of position \(ReportFormat.count(asOf))",
            runningTitle: "Subject dossier · \(subject) · log \(log) · position \(ReportFormat.count(asOf))",
            summary: summary,
            lead: [
                "This dossier is the complete history of one subject — a child or other user of an app, known to the ledger only by a pseudonym — "
                    + "as recorded in the ledger up to position \(ReportFormat.count(asOf)), in the order it was recorded. Each step is one event: "
                    + "what happened, who caused it, and what the ledger concluded about the subject afterwards (age category, parental controls, "
                    + "age signals, which features were open, and questions to parents).",
                "It contains no personal data: events are described in plain sentences without their payloads, and a subject who was erased is marked as erased. "
                    + "Times are in UTC: “occurred” is the device’s clock, “recorded” the ledger’s.",
            ],
            parameters: [
                ("Log", ReportMarkup.id(log)),
                ("Subject", ReportMarkup.subject(subject, erased: final?.erased == true)),
                ("As of position", ReportMarkup.count(asOf)),
            ],
            provenance: provenance,
            policy: policy,
            body: body)
        return page.render()
    }

    // MARK: Findings

    private static func findingsTable(_ findings: [SubjectDossierFinding]) -> HTML {
        var html: HTML = "<ul class=\"findings\">\n"
        for finding in findings {
            let evidence = finding.evidencePositions.map { "#\($0)" }.joined(separator: ", ")
            html += "<li><strong>\(finding.rule)</strong> (\(finding.kind)) at #\(finding.position): "
                + "\(finding.detail). Evidence: \(evidence)."
                + (finding.needsReview.map { " <strong>Needs review:</strong> " + HTML(text: $0) + "." } ?? .empty)
                + "</li>\n"
        }
        return html + "</ul>\n"
    }

    private static func citedTable(_ events: [SubjectDossierEvent]) -> HTML {
        let rows: [[HTML]] = events.map { event in
            [ReportMarkup.cell("<span class=\"pos\">#\(event.position)</span><br>\(ReportMarkup.id(event.eventId))"),
             ReportMarkup.cell("<ul class=\"plain\"><li>occurred \(ReportMarkup.time(event.occurredAt))</li>"
                + "<li>recorded \(ReportMarkup.time(event.recordedAt))</li></ul>"),
             ReportMarkup.cell("<strong>\(event.type)</strong> \(HTML(text: event.sentence))")]
        }
        return ReportMarkup.table(columns: [("Event", ""), ("When", ""), ("What happened", "")], rows: rows, className: "data")
    }

    // MARK: History

    private static func history(_ steps: [Step]) -> HTML {
        var previous: Snapshot?
        var rows: [[HTML]] = []
        for step in steps {
            var what: [HTML] = ["<strong>\(step.type)</strong>", HTML(text: step.sentence)]
            what.append("<span class=\"note\">by \(step.actor)\(step.app.map { ", app \($0)" } ?? ""); stream \(ReportMarkup.id(step.stream))</span>")
            let change: HTML
            if !step.changedState {
                change = "<span class=\"unchanged\">unchanged</span>"
            } else if let state = step.state {
                let lines = differences(from: previous, to: state)
                change = lines.isEmpty ? "<span class=\"unchanged\">changed (no kept detail differs)</span>"
                                       : "<ul class=\"plain\">\(lines.map { "<li>\($0)</li>" as HTML })</ul>"
            } else {
                change = ReportMarkup.none("nothing kept yet")
            }
            rows.append([
                ReportMarkup.cell("<span class=\"pos\">#\(step.position)</span><br>\(ReportMarkup.id(step.eventId))"),
                ReportMarkup.cell("<ul class=\"plain\"><li>occurred \(ReportMarkup.time(step.occurredAt))</li><li>recorded \(ReportMarkup.time(step.recordedAt))</li></ul>"),
                ReportMarkup.cell("<ul class=\"plain\">\(what.map { "<li>\($0)</li>" as HTML })</ul>"),
                ReportMarkup.cell(change),
            ])
            if step.state != nil { previous = step.state }
        }
        return ReportMarkup.table(columns: [("Event", ""), ("When", ""), ("What happened", ""), ("State after", "")], rows: rows,
                                  className: "data dossier")
    }

    /// What differs between two snapshots, a line each: age, controls, erasure, then the signals,
    /// features and consents that are new or changed (matched by platform, app and feature, kind and id).
    static func differences(from previous: Snapshot?, to state: Snapshot) -> [HTML] {
        var lines: [HTML] = []
        if previous == nil || previous!.age != state.age { lines.append("<strong>Age</strong>: \(age(state.age))") }
        if previous == nil || previous!.parentalControls != state.parentalControls {
            lines.append("<strong>Parental controls</strong>: \(controls(state.parentalControls))")
        }
        if state.erased && previous?.erased != true { lines.append("\(ReportMarkup.erasedMarker) the subject’s key was destroyed") }
        func changed<Item: Equatable>(_ items: [Item], _ before: [Item]?, key: (Item) -> String, line: (Item) -> HTML) {
            var earlier: [String: Item] = [:]
            for item in before ?? [] { earlier[key(item)] = item }
            for item in items where earlier[key(item)] != item { lines.append(line(item)) }
            let now = Set(items.map(key))
            for item in before ?? [] where !now.contains(key(item)) { lines.append("No longer listed: \(line(item))") }
        }
        changed(state.signals, previous?.signals, key: \.platform, line: signal)
        changed(state.features, previous?.features, key: { $0.app + "\u{0}" + $0.feature }, line: feature)
        changed(state.consents, previous?.consents, key: { $0.kind + "\u{0}" + $0.id }, line: consent)
        return lines
    }

    /// "13to15 (13–15, guardianDeclared) from AgeRangeShared at #12", or "no age signal yet".
    static func age(_ age: Snapshot.Age?) -> HTML {
        guard let age else { return ReportMarkup.none("no age signal yet") }
        var details: [String] = []
        switch (age.lower, age.upper) {
        case let (l?, u?): details.append("\(l)–\(u)")
        case let (l?, nil): details.append("\(l) or over")
        case let (nil, u?): details.append("up to \(u)")
        case (nil, nil): break
        }
        details.append(age.declaration.map(ReportLabels.words) ?? "declaration not stated")
        if age.verifiedAdult { details.append("verified adult") }
        return "<strong>\(ReportLabels.words(age.category))</strong> (\(details.joined(separator: ", "))) from \(age.source) at #\(age.position)"
    }

    /// Who answered a consent entry and how: "g_2b81d4, by message", "not disclosed by platform,
    /// in person", or "not answered".
    private static func answeredBy(_ entry: Snapshot.Consent) -> HTML {
        guard ["approval", "denial", "rescinded"].contains(entry.status) || entry.channel != nil else {
            return ReportMarkup.none("not answered")
        }
        let who: HTML = entry.answeredBy.map { ReportMarkup.id($0) } ?? ReportMarkup.none("not disclosed by platform")
        guard let channel = entry.channel else { return who }
        return who + ", " + ConsentRegisterHTML.channel(channel)
    }

    private static func controls(_ controls: [String]?) -> HTML {
        guard let controls else { return ReportMarkup.none("not reported yet") }
        return controls.isEmpty ? "none" : HTML(text: controls.joined(separator: ", "))
    }

    private static func signal(_ signal: Snapshot.Signal) -> HTML {
        let category = signal.category.map { ", \($0)" } ?? ""
        return "Signal on \(signal.platform): \(signal.outcome)\(category) (#\(signal.position))"
    }

    private static func feature(_ feature: Snapshot.Feature) -> HTML {
        "Feature \(feature.feature) of \(feature.app.isEmpty ? "no named app" : feature.app): <strong>\(feature.state)</strong>"
            + " (policy \(feature.policyVersion), #\(feature.position))"
    }

    private static func consent(_ consent: Snapshot.Consent) -> HTML {
        let kind = consent.kind == "exception" ? "Exception" : "Question"
        var about: [String] = []
        if let app = consent.app { about.append(app) }
        if let topic = consent.topic { about.append(topic) }
        if let change = consent.changeId { about.append("change \(change)") }
        if let rated = consent.ratedApp { about.append("rated app \(rated)") }
        var line: HTML = "\(kind) \(ReportMarkup.id(consent.id))"
        if !about.isEmpty { line += " (\(about.joined(separator: ", ")))" }
        line += ": " + ConsentRegisterHTML.outcome(consent.status)
        if let by = consent.answeredBy { line += " by \(by)" }
        if let channel = consent.channel { line += ", " + ConsentRegisterHTML.channel(channel) }
        return line
    }

    // MARK: The state at the end

    private static func finalState(_ state: Snapshot?) -> HTML {
        guard let state else {
            return ReportMarkup.paragraph("The ledger keeps nothing about this subject yet: no age signal, gated feature or question to a parent.", className: "empty")
        }
        var html = ReportMarkup.facts([
            ("Age", age(state.age)),
            ("Parental controls", controls(state.parentalControls)),
            ("Erased", state.erased ? ReportMarkup.erasedMarker : "no"),
        ])
        let signalRows = state.signals.map { signal -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.text(signal.platform)), ReportMarkup.cell(ReportMarkup.text(signal.outcome)),
             ReportMarkup.cell(ReportMarkup.text(signal.category)),
             ReportMarkup.cell("<span class=\"pos\">#\(signal.position)</span>")]
        }
        html += ReportMarkup.subsection("Age signals by platform",
            signalRows.isEmpty ? ReportMarkup.paragraph("No age signal on record.", className: "empty")
                : ReportMarkup.table(columns: [("Platform", ""), ("Latest outcome", ""), ("Category", ""), ("Evidence", "")], rows: signalRows))
        let featureRows = state.features.map { feature -> [HTML] in
            [ReportMarkup.cell(feature.app.isEmpty ? ReportMarkup.none("no named app") : ReportMarkup.id(feature.app)),
             ReportMarkup.cell(ReportMarkup.text(feature.feature)),
             ReportMarkup.cell("<strong>\(feature.state)</strong>"),
             ReportMarkup.cell("<span class=\"nw\">\(ReportMarkup.text(feature.policyVersion))</span>"),
             ReportMarkup.cell("<span class=\"pos\">#\(feature.position)</span>"
                + (feature.basis.isEmpty ? .empty : "<br>cites " + HTML.join(feature.basis.map { ReportMarkup.id($0) }, separator: ", ")))]
        }
        html += ReportMarkup.subsection("Gated features",
            featureRows.isEmpty ? ReportMarkup.paragraph("No feature was gated for this subject.", className: "empty")
                : ReportMarkup.table(columns: [("App", ""), ("Feature", ""), ("State", ""), ("Policy", ""), ("Evidence", "")], rows: featureRows,
                                     className: "data features"))
        let consentRows = state.consents.map { consent -> [HTML] in
            var about: [String] = []
            if let topic = consent.topic { about.append(topic) }
            if let change = consent.changeId { about.append("change \(change)") }
            if let rated = consent.ratedApp { about.append("rated app \(rated)") }
            return [ReportMarkup.cell("\(consent.kind) \(ReportMarkup.id(consent.id))"),
                    ReportMarkup.cell(ReportMarkup.id(consent.app)),
                    ReportMarkup.cell(about.isEmpty ? ReportMarkup.none() : HTML(text: about.joined(separator: ", "))),
                    ReportMarkup.cell(ConsentRegisterHTML.outcome(consent.status)),
                    ReportMarkup.cell(answeredBy(consent)),
                    ReportMarkup.cell(ReportMarkup.positions(consent.evidence))]
        }
        html += ReportMarkup.subsection("Questions to parents and exceptions",
            consentRows.isEmpty ? ReportMarkup.paragraph("No question was sent and no exception requested for this subject.", className: "empty")
                : ReportMarkup.table(columns: [("Item", ""), ("App", ""), ("About", ""), ("Status", ""), ("Answered by", ""), ("Evidence", "")], rows: consentRows))
        return html
    }
}
