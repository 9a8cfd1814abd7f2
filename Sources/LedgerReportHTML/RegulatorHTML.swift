import LedgerCore
import LedgerReportModel
/// The regulator report as an HTML page: one jurisdiction and one period, every section of the
/// schema in order (scope, age signals, consent, significant changes, exceptions, violations,
/// coverage, retention, integrity, the policy in force), with charts of consent outcomes per
/// week, time to answer and age signals by category. The coverage and retention sections take their
/// titles from the report (the laws that govern its jurisdiction, ``RegulatorLaws``), never a fixed law.
/// Input: the report's document (``RegulatorDocument``), decoded from the JSON of `consent-ledger report
/// regulator` (docs/reports/regulator.schema.json).
enum RegulatorHTML {
    /// The sections, as (anchor, title), in the order of the page; the titles of coverage and
    /// retention are the report's own (`coverage.title`, `retention.title`), these only stand in.
    static let sections: [(String, String)] = [
        ("scope", "Scope"), ("age-signals", "Age signals"), ("consent", "Consent"),
        ("significant-changes", "Significant changes"), ("exceptions", "Age-rating exceptions"),
        ("violations", "Violations found by the ledger’s rules"), ("coverage", "Coverage"),
        ("retention", "Retention and erasure"), ("integrity", "Integrity"), ("policy", "The policy in force"),
    ]

    /// The sections of one report: ``sections`` with the coverage and retention titles it gives.
    static func sections(coverage: String, retention: String) -> [(String, String)] {
        sections.map { anchor, title in
            (anchor, anchor == "coverage" ? coverage : anchor == "retention" ? retention : title)
        }
    }

    /// The page of `report`, whose seal matched the JSON it was read from when `sealMatches`;
    /// `policy` names who issues it and when.
    static func render(_ report: RegulatorDocument, sealMatches: Bool, policy issue: ReportPolicy) throws -> String {
        let parameters = report.parameters
        let log = parameters.log
        let jurisdiction = parameters.jurisdiction
        let from = parameters.from
        let to = parameters.to
        let asOf = Int(parameters.asOf)
        let provenance = try ReportPage.Provenance(ledger: report.ledger, software: report.software, sha256: report.sha256,
                                                   sealMatches: sealMatches, reportName: "regulator report")

        let scope = report.scope
        let consent = report.consent
        let violations = report.violations
        let integrity = report.integrity
        let coverage = report.coverage
        let retention = report.retention
        let policy = report.policy
        let contents = sections(coverage: coverage.title, retention: retention.title)

        let passed = integrity.passed
        // What a reader must know before trusting the figures comes before them (issue 39).
        var summary = ReportMarkup.notices(report.notices)
        summary += ReportMarkup.keyFigures([
            (ReportFormat.count(scope.eventsInJurisdiction), "events counted"),
            (ReportFormat.count(consent.questionsSent), "questions to parents"),
            (ReportFormat.count(consent.approved), "approved"),
            (ReportFormat.count(violations.count), violations.count == 1 ? "violation found" : "violations found"),
            (coverage.shareAtDownload.map(ReportFormat.percent) ?? "—", "of installs asked for an age range at download"),
            (passed ? "passed" : "FAILED", "integrity check"),
        ])
        summary += findings(scope: scope, consent: consent, violations: violations, integrity: integrity, coverage: coverage)
        var body: HTML = .empty
        body += scopeSection(scope, jurisdiction: jurisdiction)
        body += ageSignalsSection(report.ageSignals)
        body += consentSection(consent, windowHours: policy.rescissionEnforcementWindowHours)
        body += changesSection(report.significantChanges)
        body += exceptionsSection(report.exceptions)
        body += violationsSection(violations)
        body += coverageSection(coverage)
        body += retentionSection(retention)
        body += integritySection(integrity, provenance: provenance)
        body += policySection(policy)

        let period = "\(ReportFormat.timestamp(from)) to \(ReportFormat.timestamp(to))"
        let page = ReportPage(
            documentTitle: "Regulator report — \(jurisdiction), \(from) to \(to), log \(log) at position \(asOf)",
            heading: "Regulator report: \(jurisdiction)",
            subtitle: "Period \(period) (end excluded); log \(log), as of position \(ReportFormat.count(asOf))",
            runningTitle: "Regulator report · \(jurisdiction) · \(from.prefix(10)) to \(to.prefix(10)) · log \(log)",
            summary: summary,
            lead: [
                "This report sets out, for one jurisdiction and one period, how apps asked for their users’ age ranges, how questions to parents "
                    + "were answered and how fast, which significant app changes needed a parent’s approval, which requests to use an app above its "
                    + "age rating were made, how many installs had an age signal, what was erased, and what the ledger’s own rules flagged as a violation.",
                "Every figure is counted from the events of the ledger — an append-only, hash-chained log in which each age signal, question, "
                    + "answer and decision is one event — that occurred in the period (by the device’s clock) and named this jurisdiction or one within it. "
                    + "Itemised rows cite their evidence: the log positions (#) and event ids they rest on. Children and guardians appear only as pseudonyms. "
                    + "Times are in UTC; a dash (—) means the value does not exist, for instance a median with nothing to take it of.",
            ],
            parameters: [
                ("Jurisdiction", ReportMarkup.id(jurisdiction)),
                ("Period", "\(ReportMarkup.time(from)) to \(ReportMarkup.time(to)) (end excluded)"),
                ("Log", ReportMarkup.id(log)),
                ("As of position", ReportMarkup.count(asOf)),
                ("Policy", HTML(text: policy.source)),
            ],
            provenance: provenance,
            policy: issue,
            contents: contents,
            body: body)
        return page.render()
    }

    /// The findings in sentences, each pointing at the section that details it.
    private static func findings(scope: RegulatorScopeSection, consent: RegulatorConsentSection, violations: [RegulatorViolationRow],
                                 integrity: RegulatorIntegritySection, coverage: RegulatorCoverageSection) -> HTML {
        var items: [HTML] = []
        let unknown = scope.eventsWithUnknownJurisdiction
        if unknown > 0 {
            let codes = scope.unknownCodes.map { ReportMarkup.id($0.code) }
            items.append("<strong>\(ReportFormat.plural(unknown, "event")) of the period named a jurisdiction code that is not ISO 3166</strong> ("
                + HTML.join(codes, separator: ", ") + "): stored as sent, but counted in no jurisdiction’s report (<a href=\"#scope\">scope</a>).")
        }
        if violations.isEmpty {
            items.append("The ledger’s rules found no violation in this period (<a href=\"#violations\">details</a>).")
        } else {
            var byRule: [String: Int] = [:]
            for violation in violations { byRule[violation.rule, default: 0] += 1 }
            let parts = byRule.sorted { $0.key < $1.key }.map { rule, count -> HTML in "\(ReportFormat.count(count)) \(rule)" }
            items.append("<strong>\(ReportFormat.plural(violations.count, "violation")) of the ledger’s rules</strong>: "
                + HTML.join(parts, separator: ", ") + " (<a href=\"#violations\">each with its evidence</a>).")
        }
        let sent = consent.questionsSent
        items.append("\(ReportFormat.plural(sent, "question")) went to parents: \(ReportFormat.count(consent.approved)) approved, "
            + "\(ReportFormat.count(consent.denied)) denied, \(ReportFormat.count(consent.expired)) expired, "
            + "\(ReportFormat.count(consent.failed)) failed to reach a parent, \(ReportFormat.count(consent.pendingAtPeriodEnd)) "
            + "pending at the period’s end (<a href=\"#consent\">consent</a>).")
        if let share = coverage.shareAtDownload {
            items.append("\(ReportFormat.percent(share)) of installs were asked for an age range at download (<a href=\"#coverage\">coverage</a>).")
        }
        items.append(integrity.passed
            ? "The ledger’s records behind these figures were re-hashed and checked: <span class=\"pass\">integrity passed</span> (<a href=\"#integrity\">integrity</a>)."
            : "<span class=\"fail\">The integrity check FAILED</span>: \(integrity.problem ?? "see the integrity section") (<a href=\"#integrity\">integrity</a>).")
        return "<ul class=\"findings\">\(items.map { "<li>\($0)</li>" as HTML })</ul>\n"
    }

    /// The title of a section by its anchor.
    static func title(_ anchor: String) -> String { sections.first { $0.0 == anchor }?.1 ?? anchor }

    // MARK: Scope

    private static func scopeSection(_ scope: RegulatorScopeSection, jurisdiction: String) -> HTML {
        let inPeriod = scope.eventsInPeriod
        let counted = scope.eventsInJurisdiction
        let without = scope.eventsWithoutJurisdiction
        let unknownCount = scope.eventsWithUnknownJurisdiction
        let name = scope.name
        let members = scope.members
        let takesIn: HTML
        switch scope.kind {
        case "group":
            let asOf = scope.membersAsOf.map { ", as of \($0)" } ?? ""
            let head: HTML = "\(name) (\(ReportMarkup.id(jurisdiction))): the code itself, its \(ReportFormat.count(members.count)) member states\(asOf) — "
            let total = ReportFormat.count(scope.codesTakenIn)
            let tail: HTML = " — and their ISO 3166-2 subdivisions (\(total) codes in all)."
            takesIn = head + HTML.join(members.map { ReportMarkup.id($0) }, separator: ", ") + tail
        case "country":
            let total = ReportFormat.count(scope.codesTakenIn)
            takesIn = "\(name) (\(ReportMarkup.id(jurisdiction))) and its ISO 3166-2 subdivisions (\(total) codes in all)."
        default:
            takesIn = "\(name) (\(ReportMarkup.id(jurisdiction))) alone, an ISO 3166-2 subdivision."
        }
        var html: HTML = "<p>This report takes in the events whose jurisdiction code is that of \(takesIn)</p>\n"
        html += ReportMarkup.figures([
            ("Events in the period, any jurisdiction", ReportMarkup.count(inPeriod), nil),
            ("Events of \(jurisdiction) (or within it)", ReportMarkup.count(counted), "what this report counts"),
            ("Events that named no jurisdiction", ReportMarkup.count(without), "counted in no jurisdiction’s report"),
            ("Events whose code is not an ISO 3166 code", ReportMarkup.count(unknownCount), "stored, but counted in no jurisdiction’s report"),
        ])
        let unknown = scope.unknownCodes.map { item -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.id(item.code)), ReportMarkup.countCell(item.events),
             ReportMarkup.cell(ReportMarkup.evidence(positions: item.evidencePositions, eventIds: item.evidenceEventIds))]
        }
        html += ReportMarkup.subsection("Events by build", intro: "The events of \(jurisdiction) by the build the app said they came from "
            + "(app.environment). The report counts them all: a sandbox or development event is a test, not a person.",
            keyCountTable(scope.eventsByEnvironment, keyHeader: "Environment"))
        if !unknown.isEmpty {
            html += ReportMarkup.subsection("Unknown jurisdiction codes", intro: "Events of the period (any jurisdiction) whose code is not a code of ISO 3166: "
                + "the ledger stored them as sent, but no report can take them in. The evidence is the first such event.",
                ReportMarkup.table(columns: [("Code", ""), ("Events", "num"), ("First event", "")], rows: unknown))
        }
        return ReportMarkup.section(id: "scope", title: title("scope"), html)
    }

    // MARK: Age signals

    private static func ageSignalsSection(_ signals: RegulatorAgeSignalsSection) -> HTML {
        let categories = signals.responsesByCategory
        let keys = categories.map(\.key)
        let apple = categories.map(\.declaredAgeRange)
        let play = categories.map(\.play)
        let totals = categories.map(\.count)
        let chart = BarChart(
            id: "chart-age-categories", title: "Age signals received per age band, Apple and Google Play side by side",
            categories: keys.map(ReportLabels.words), series: [.init(name: "Apple Declared Age Range", color: .blue), .init(name: "Google Play Age Signals", color: .orange)],
            values: zip(apple, play).map { [$0, $1] }, layout: .grouped,
            xAxisTitle: "Age band (derived legal category)", yAxisTitle: "Responses", unit: "responses",
            emptySentence: "No age signal was received in this period.",
            note: "AgeRangeShared (Apple) and PlayAgeSignalReceived (Google Play) by the legal category the ledger derived from the range; "
                + "“unknown”: the range straddles a band, or Play sent none.")
        let categoryRows = keys.indices.map { index -> [HTML] in
            [ReportLabels.rowHeader(keys[index]), ReportMarkup.countCell(apple[index]), ReportMarkup.countCell(play[index]),
             ReportMarkup.countCell(totals[index])]
        }
        let categoryTable = ReportMarkup.table(
            columns: [("Age band", ""), ("Apple", "num"), ("Google Play", "num"), ("All", "num")],
            rows: categoryRows + [total(label: "All bands", [apple, play, totals])])

        var html = ReportMarkup.subsection("Responses by age band", chart.render() + categoryTable)
        html += "<div class=\"pair\">\n"
        html += ReportMarkup.subsection("Eligibility checks", intro: "EligibilityChecked: whether the system said age features apply to the person.",
                                        keyCountTable(signals.eligibilityChecks, keyHeader: "Outcome"))
        html += ReportMarkup.subsection("Requests by trigger", intro: "AgeRangeRequested, by what made the app ask.",
                                        keyCountTable(signals.requestsByTrigger, keyHeader: "Trigger"))
        html += ReportMarkup.subsection("Responses by declaration", intro: "AgeRangeShared, by who declared or checked the range.",
                                        keyCountTable(signals.responsesByDeclaration, keyHeader: "Declaration"))
        html += ReportMarkup.subsection("Parental controls", intro: "AgeRangeShared, by each parental control active on the device (none: no control).",
                                        keyCountTable(signals.responsesByParentalControl, keyHeader: "Control"))
        html += ReportMarkup.subsection("Declines and failures", intro: "The person declined to share (AgeRangeDeclined), or the request failed (AgeRangeRequestFailed).",
            keyCountTable([("declined", signals.declines)] + signals.failures.map { ("failed: " + $0.key, $0.count) },
                              keyHeader: "Outcome"))
        html += ReportMarkup.subsection("Google Play signals by status", intro: "PlayAgeSignalReceived, by userStatus.",
                                        keyCountTable(signals.playSignalsByStatus, keyHeader: "Status"))
        html += "</div>\n"
        html += ReportMarkup.subsection("Apps' own age checks and third-party verifiers",
                                        intro: "AgeVerificationCompleted: age checks that are neither platform's, by method and outcome. "
                                            + "Only a third party's check that found an adult makes a verified adult.",
                                        ageChecksTable(signals.ageChecksByMethod))
        return ReportMarkup.section(id: "age-signals", title: title("age-signals"),
                                    intro: "How apps asked for age ranges in the period and what came back.", html)
    }

    // MARK: Consent

    private static func consentSection(_ consent: RegulatorConsentSection, windowHours: Int) -> HTML {
        let sent = consent.questionsSent
        var rows: [(String, HTML, HTML?)] = [
            ("Questions sent to parents", ReportMarkup.count(sent), "PermissionQuestionSent in the period"),
            ("Approved", ReportMarkup.count(consent.approved), share(consent.approved, of: sent, "first answer: approval")),
            ("Denied", ReportMarkup.count(consent.denied), share(consent.denied, of: sent, "first answer: denial")),
            ("Expired unanswered", ReportMarkup.count(consent.expired), share(consent.expired, of: sent, "")),
            ("Failed (never reached a parent)", ReportMarkup.count(consent.failed), share(consent.failed, of: sent, "")),
            ("Pending at the period’s end", ReportMarkup.count(consent.pendingAtPeriodEnd), share(consent.pendingAtPeriodEnd, of: sent, "")),
        ]
        let oldest = consent.oldestPending
        var html = ReportMarkup.figures(rows)
        if let oldest {
            html += ReportMarkup.subsection("Oldest pending question", ReportMarkup.table(
                columns: [("Question", ""), ("Subject", ""), ("Asked", ""), ("Waiting at the period’s end", ""), ("Evidence", "")],
                rows: [[ReportMarkup.cell(ReportMarkup.id(oldest.questionId)),
                        ReportMarkup.cell(ReportMarkup.subject(oldest.subject)),
                        ReportMarkup.cell(ReportMarkup.time(oldest.askedAt)),
                        ReportMarkup.cell(ReportMarkup.duration(seconds: oldest.ageSeconds)),
                        ReportMarkup.cell(ReportMarkup.evidence(positions: oldest.evidencePositions, eventIds: oldest.evidenceEventIds))]]))
        } else {
            html += ReportMarkup.paragraph("No question was pending at the period’s end.")
        }

        // Time to answer.
        let time = consent.timeToAnswer
        rows = [
            ("Questions answered in the period", ReportMarkup.count(time.answered), nil),
            ("Median time to answer", ReportMarkup.duration(seconds: time.medianSeconds, otherwise: "— (none answered)"), nil),
            ("95th percentile", ReportMarkup.duration(seconds: time.p95Seconds, otherwise: "— (none answered)"),
             "95 in 100 answers came at least this fast"),
        ]
        let buckets = consent.timeToAnswerDistribution
        let distribution = BarChart(
            id: "chart-time-to-answer", title: "Questions answered, by time to answer",
            categories: buckets.map(\.label), series: [.init(name: "answered", color: .blue)],
            values: buckets.map { [$0.count] }, layout: .grouped,
            xAxisTitle: "Time from asking to the answer", yAxisTitle: "Questions answered", unit: "answered questions",
            emptySentence: "No question was answered in this period.",
            note: "From the time a question was sent (its occurredAt) to the answer’s receivedAt; median and percentile by linear interpolation, rounded to the second.")
        html += ReportMarkup.subsection("Time to answer", ReportMarkup.figures(rows) + distribution.render())

        // Outcomes per week.
        let weeks = consent.outcomesByWeek
        let outcomes: [ConsentOutcome] = [.approved, .denied, .expired, .failed, .pending]
        let keys = ["approved", "denied", "expired", "failed", "pending"]
        let values = weeks.map { week in [week.approved, week.denied, week.expired, week.failed, week.pending] }
        let weekly = BarChart(
            id: "chart-outcomes-by-week", title: "Questions sent per week, by what became of them",
            categories: weeks.map(\.weekStart), series: outcomes.map { .init(name: $0.label, color: $0.color) },
            values: values, layout: .stacked,
            xAxisTitle: "Week starting (Monday, UTC)", yAxisTitle: "Questions sent", unit: "questions",
            emptySentence: "No questions were sent in this period.",
            note: "Each bar is the questions sent in a week, stacked by what became of them by the period’s end, in the legend’s order.")
        var weekTable: HTML = .empty
        if !weekly.isEmpty {
            let weekRows = weeks.enumerated().map { index, week -> [HTML] in
                ["<th scope=\"row\">\(week.weekStart)</th>", ReportMarkup.countCell(week.sent)]
                    + values[index].map(ReportMarkup.countCell)
            }
            weekTable = ReportMarkup.table(columns: [("Week starting", ""), ("Sent", "num")] + keys.map { ($0, "num") }, rows: weekRows,
                                           className: "data chart-data")
        }
        html += ReportMarkup.subsection("Outcomes per week", weekly.render() + weekTable)

        // Rescissions.
        let rescissions = consent.rescissions
        html += ReportMarkup.subsection("Rescissions", intro: "Consent withdrawn later (App Store RESCIND_CONSENT), when the ledger told the app (a webhook "
            + "receiver took the withdrawal: WithdrawalDelivered) and how soon the app closed the feature for the child "
            + "(AccessGateApplied). The policy allows \(ReportFormat.plural(windowHours, "hour")) to close it.", ReportMarkup.figures([
            ("Rescissions in the period", ReportMarkup.count(rescissions.count), nil),
            ("Enforced within \(ReportFormat.plural(windowHours, "hour"))", ReportMarkup.count(rescissions.enforcedWithinWindow), nil),
            ("Enforced late", ReportMarkup.count(rescissions.enforcedLate), nil),
            ("Not enforced", ReportMarkup.count(rescissions.notEnforced), "no AccessGateApplied closed the feature"),
            ("Median time to enforcement", ReportMarkup.duration(seconds: rescissions.medianSecondsToEnforcement), nil),
            ("Longest time to enforcement", ReportMarkup.duration(seconds: rescissions.maxSecondsToEnforcement), nil),
            ("Told to the app by the ledger", ReportMarkup.count(rescissions.told), "a webhook receiver took the withdrawal (WithdrawalDelivered)"),
            ("Median time to tell the app", ReportMarkup.duration(seconds: rescissions.medianSecondsToTell), nil),
            ("Longest time to tell the app", ReportMarkup.duration(seconds: rescissions.maxSecondsToTell), nil),
        ]) + withdrawalsTable(rescissions.withdrawals))
        html += ReportMarkup.subsection("The app store’s consent status",
            intro: "StoreConsentStatusReceived: what the app stores’ data sharing said of a minor’s verifiable parental consent, "
                + "which the state app store acts make developers verify.",
            keyCountTable(consent.storeConsentStatus, keyHeader: "Status"))
        return ReportMarkup.section(id: "consent", title: title("consent"),
            intro: "Questions sent to parents through PermissionKit in the period, and what had become of each by the period’s end.", html)
    }

    // MARK: Helpers

    /// Each withdrawal: when it happened, when the ledger told the app, when the app closed the
    /// feature, each with its position (decision 0084).
    static func withdrawalsTable(_ withdrawals: [RegulatorConsentSection.Withdrawal]) -> HTML {
        guard !withdrawals.isEmpty else { return .empty }
        func step(_ step: RegulatorConsentSection.Step?, _ word: String) -> [HTML] {
            guard let step else { return [ReportMarkup.cell(ReportMarkup.none(word)), ReportMarkup.cell(ReportMarkup.none())] }
            return [ReportMarkup.cell(ReportMarkup.shortTime(step.at) + " " + ReportMarkup.positions([step.position])),
                    ReportMarkup.cell(ReportMarkup.duration(seconds: step.secondsAfterRescission), "num")]
        }
        let rows = withdrawals.map { w -> [HTML] in
            [ReportMarkup.cell(ReportMarkup.positions([w.position])), ReportMarkup.cell(ReportMarkup.subject(w.subject)),
             ReportMarkup.cell(ReportMarkup.shortTime(w.rescindedAt))] + step(w.told, "not told") + step(w.closed, "not closed")
        }
        return ReportMarkup.table(columns: [("Rescission", ""), ("Subject", ""), ("Withdrawn (UTC)", ""), ("App told (UTC)", ""),
                                            ("After", "num"), ("Feature closed (UTC)", ""), ("After", "num")],
                                  rows: rows, caption: "Each withdrawal: when the ledger told the app and when the app closed the feature")
    }

    /// "81.25 % of questions sent" beside a count, with a note.
    static func share(_ part: Int, of whole: Int, _ note: String) -> HTML {
        let percent = ReportFormat.percent(part, of: whole).map { "\($0) of those sent" } ?? ""
        let text = [percent, note].filter { !$0.isEmpty }.joined(separator: "; ")
        return HTML(text: text)
    }

    /// The age checks by method, a column per outcome, with a total row.
    static func ageChecksTable(_ items: [RegulatorAgeSignalsSection.MethodCount]) -> HTML {
        let outcomes = ["passed", "failed", "inconclusive", "count"]
        let values = items.map { item in [item.passed, item.failed, item.inconclusive, item.count] }
        let rows = items.indices.map { index -> [HTML] in
            [ReportLabels.rowHeader(items[index].key)] + values[index].map { ReportMarkup.countCell($0) }
        }
        let columns = outcomes.indices.map { column in values.map { $0[column] } }
        return ReportMarkup.table(columns: [("Method", ""), ("Passed", "num"), ("Failed", "num"), ("Inconclusive", "num"), ("All", "num")],
                                  rows: rows + [total(label: "All methods", columns)], className: "data compact")
    }

    /// A table of (key, count) with a total row.
    static func keyCountTable(_ items: [ReportKeyCount], keyHeader: String) -> HTML {
        keyCountTable(items.map { ($0.key, $0.count) }, keyHeader: keyHeader)
    }

    /// A table of (key, count) with a total row.
    static func keyCountTable(_ items: [(String, Int)], keyHeader: String) -> HTML {
        let rows = items.map { key, count -> [HTML] in [ReportLabels.rowHeader(key), ReportMarkup.countCell(count)] }
        return ReportMarkup.table(columns: [(keyHeader, ""), ("Count", "num")],
                                  rows: rows + [total(label: "All", [items.map(\.1)])], className: "data compact")
    }

    /// A total row: the label, then the sum of each column.
    static func total(label: String, _ columns: [[Int]]) -> [HTML] {
        ["<th scope=\"row\" class=\"total\">\(label)</th>"] + columns.map { "<td class=\"num total\">\(ReportFormat.count($0.reduce(0, +)))</td>" }
    }
}
