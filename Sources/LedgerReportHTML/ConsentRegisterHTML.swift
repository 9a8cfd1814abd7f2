import LedgerCore
import LedgerReportModel
/// The consent register ("who approved what and when") as an HTML page: key figures, outcomes per
/// week and time to answer as charts, then one row per question or exception with its evidence.
/// Input: the register's document (``ConsentRegisterDocument``), read from the JSON of
/// `consent-ledger report consent-register` (docs/reports/consent-register.schema.json).
enum ConsentRegisterHTML {
    /// One row of the register.
    typealias Row = ConsentRegisterRow

    /// The page of `report`, whose seal matched the JSON it was read from when `sealMatches`;
    /// `policy` names who issues it and when.
    static func render(_ report: ConsentRegisterDocument, sealMatches: Bool, policy: ReportPolicy) throws -> String {
        let log = report.parameters.log
        let asOf = Int(report.parameters.asOf)
        let from = report.parameters.from
        let to = report.parameters.to
        let subject = report.parameters.subject
        let provenance = try ReportPage.Provenance(ledger: report.ledger, software: report.software, sha256: report.sha256,
                                                   sealMatches: sealMatches, reportName: "consent register")
        let rowCount = report.rowCount
        let rows = report.rows
        // What a reader must know before trusting the rows comes before the summary (issue 39).
        let warnings = ReportMarkup.notices(report.notices)

        var body: HTML = .empty
        let weekly = outcomesByWeek(rows, from: from, to: to)
        let distribution = timeToAnswer(rows)
        body += ReportMarkup.section(
            id: "charts", title: "Outcomes and time to answer",
            intro: "The charts count the rows of the register below: questions and exceptions together.",
            weekly.render() + weekly.dataTable(categoryHeader: "Week starting") + distribution.render())
        body += ReportMarkup.section(
            id: "register", title: "The register",
            intro: "One row per question or exception, in the order they were asked; identifiers are printed whole. Evidence lists the log positions (#) "
                + "the row rests on: the question or request, then any failure, answer, expiry and rescission. The JSON and CSV forms also give each "
                + "event’s id and each question’s expiry time.",
            rows.isEmpty ? ReportMarkup.paragraph("The register has no rows: no question was sent and no exception requested"
                                                    + (subject == nil ? "" : " for this subject") + " up to position \(ReportFormat.count(asOf)).", className: "empty")
                         : table(rows))

        var period = "all time"
        if let from, let to { period = "from \(ReportFormat.timestamp(from)) to \(ReportFormat.timestamp(to))" }
        else if let from { period = "from \(ReportFormat.timestamp(from))" }
        else if let to { period = "before \(ReportFormat.timestamp(to))" }
        let page = ReportPage(
            documentTitle: "Consent register — log \(log) at position \(asOf)",
            heading: "Consent register",
            subtitle: "Log \(log), as of position \(ReportFormat.count(asOf)); asked \(period)"
                + (subject.map { "; subject \($0)" } ?? "; all subjects"),
            runningTitle: "Consent register · log \(log) · position \(ReportFormat.count(asOf))",
            summary: warnings + summary(rows, rowCount: rowCount),
            lead: [
                "This register lists every question an app sent to a parent or guardian through Apple’s PermissionKit and every request "
                    + "to use an app rated above a child’s age (a MarketplaceKit age-rating exception), with what became of each: approved, denied, "
                    + "expired unanswered, still pending, failed to reach a parent, or approved and later rescinded.",
                "Children and guardians appear only as pseudonyms. Every row ends with its evidence: the positions in the ledger (an append-only, "
                    + "hash-chained log of events) and the ids of the events the row rests on, so each row can be traced to the records it was computed from. "
                    + "Times are in UTC; an answer’s time is the one the app reported.",
            ],
            parameters: [
                ("Log", ReportMarkup.id(log)),
                ("As of position", ReportMarkup.count(asOf)),
                ("Asked from", ReportMarkup.time(from, otherwise: "the beginning")),
                ("Asked before", ReportMarkup.time(to, otherwise: "no end")),
                ("Subject", ReportMarkup.id(subject, otherwise: "all subjects")),
            ],
            provenance: provenance,
            policy: policy,
            body: body,
            orientation: .landscape)
        return page.render()
    }

    // MARK: Summary

    private static func summary(_ rows: [Row], rowCount: Int) -> HTML {
        let questions = rows.filter { $0.kind == "question" }.count
        let exceptions = rows.filter { $0.kind == "exception" }.count
        func count(_ outcome: ConsentOutcome) -> Int { rows.filter { $0.outcome == outcome }.count }
        var figures: [(value: String, label: String)] = [
            (ReportFormat.count(rowCount), rowCount == 1 ? "row" : "rows"),
            (ReportFormat.count(questions), questions == 1 ? "question" : "questions"),
            (ReportFormat.count(exceptions), exceptions == 1 ? "exception" : "exceptions"),
        ]
        figures += ConsentOutcome.allCases.map { (ReportFormat.count(count($0)), $0.label) }
        var html = ReportMarkup.keyFigures(figures)
        html += findings(rows)
        if rowCount != rows.count {
            html += ReportMarkup.paragraph("Note: the report says it has \(ReportFormat.count(rowCount)) rows but lists \(ReportFormat.count(rows.count)).",
                                           className: "warning")
        }
        return html
    }

    /// The findings in sentences: what was decided, by whom and how fast, what is still open.
    private static func findings(_ rows: [Row]) -> HTML {
        guard !rows.isEmpty else { return ReportMarkup.paragraph("Nothing was asked in this register’s scope.", className: "empty") }
        func count(_ outcome: ConsentOutcome) -> Int { rows.filter { $0.outcome == outcome }.count }
        var items: [HTML] = []
        let answered = rows.filter { $0.answeredAt != nil }
        items.append("\(ReportFormat.plural(answered.count, "item")) of \(ReportFormat.count(rows.count)) \(answered.count == 1 ? "was" : "were") answered; "
            + "\(ReportFormat.count(count(.approved))) approved, \(ReportFormat.count(count(.denied))) denied"
            + (count(.rescinded) > 0 ? ", \(ReportFormat.count(count(.rescinded))) approved and later rescinded" : "") + ".")
        let undisclosed = answered.filter { $0.answeredBy == nil || $0.answeredBy == "not disclosed by platform" }.count
        if !answered.isEmpty {
            items.append("Who answered is on record for \(ReportFormat.count(answered.count - undisclosed)) of them; "
                + "for \(ReportFormat.count(undisclosed)) the platform did not disclose the guardian.")
        }
        let times = answered.compactMap(\.timeToAnswerSeconds).sorted()
        if !times.isEmpty {
            items.append("The median time to answer was \(ReportMarkup.duration(seconds: times[(times.count - 1) / 2])).")
        }
        if count(.expired) + count(.failed) > 0 {
            items.append("\(ReportFormat.count(count(.expired))) expired unanswered and \(ReportFormat.count(count(.failed))) never reached a parent.")
        }
        if count(.pending) > 0 { items.append("\(ReportFormat.plural(count(.pending), "item")) \(count(.pending) == 1 ? "is" : "are") still pending at this position.") }
        return "<ul class=\"findings\">\(items.map { "<li>\($0)</li>" as HTML })</ul>\n"
    }

    // MARK: Charts

    /// Rows by the ISO week (Monday, UTC) they were asked in, by outcome; every week from the first
    /// to the last listed (the period's weeks when it is given and spans at most two years).
    static func outcomesByWeek(_ rows: [Row], from: String?, to: String?) -> BarChart {
        var counts: [Int: [Int]] = [:]
        var unplaced = 0
        for row in rows {
            guard let outcome = row.outcome, let day = row.askedAt.flatMap(ReportCalendar.utcDay(of:)) else {
                unplaced += 1
                continue
            }
            let week = ReportCalendar.mondayOfWeek(day)
            var series = counts[week] ?? Array(repeating: 0, count: ConsentOutcome.allCases.count)
            series[ConsentOutcome.allCases.firstIndex(of: outcome)!] += 1
            counts[week] = series
        }
        var weeks = counts.keys.sorted()
        if let first = weeks.first, let last = weeks.last {
            var low = first, high = last
            if let start = from.flatMap(ReportCalendar.utcDay(of:)) { low = min(low, ReportCalendar.mondayOfWeek(start)) }
            if let end = to.flatMap(ReportCalendar.utcDay(of:)) {
                // `to` is excluded: a period ending at midnight ends the day before.
                let lastDay = to.map { $0.contains("T00:00:00Z") } == true ? end - 1 : end
                high = max(high, ReportCalendar.mondayOfWeek(lastDay))
            }
            if (high - low) / 7 + 1 > 106 { (low, high) = (first, last) }
            weeks = Array(stride(from: low, through: high, by: 7))
        }
        let empty = Array(repeating: 0, count: ConsentOutcome.allCases.count)
        var note = "Each bar is a week (Monday to Sunday, UTC) by the time items were asked; its segments are the outcomes as of the report’s position, stacked in the legend’s order."
        if unplaced > 0 { note += " \(ReportFormat.plural(unplaced, "row")) with no time of asking \(unplaced == 1 ? "is" : "are") not in the chart." }
        return BarChart(
            id: "chart-register-weeks", title: "Outcomes per week asked",
            categories: weeks.map(ReportCalendar.dateString), series: ConsentOutcome.allCases.map { .init(name: $0.label, color: $0.color) },
            values: weeks.map { counts[$0] ?? empty }, layout: .stacked,
            xAxisTitle: "Week starting (Monday, UTC)", yAxisTitle: "Items asked", unit: "items",
            emptySentence: "No questions were sent and no exceptions requested in this period.", note: note)
    }

    /// Answered rows by time to answer, in the regulator report's buckets.
    static func timeToAnswer(_ rows: [Row]) -> BarChart {
        let buckets = RegulatorVocabulary.timeToAnswerBuckets
        var counts = Array(repeating: 0, count: buckets.count)
        for seconds in rows.compactMap(\.timeToAnswerSeconds) {
            let index = buckets.firstIndex { bucket in bucket.to.map { seconds < $0 } ?? true } ?? buckets.count - 1
            counts[index] += 1
        }
        return BarChart(
            id: "chart-register-time", title: "Time to answer",
            categories: buckets.map(\.label), series: [.init(name: "answered", color: .blue)],
            values: counts.map { [$0] }, layout: .grouped,
            xAxisTitle: "Time from asking to the answer", yAxisTitle: "Items answered", unit: "answered items",
            emptySentence: "No question or exception was answered in this period.",
            note: "From the time an item was asked to the answer’s time as the app reported it, over \(ReportFormat.plural(counts.reduce(0, +), "answered item")); "
                + "the same buckets as the regulator report’s.")
    }

    // MARK: The table

    /// The register as a real table: one row per item, identifiers in one piece (no wrapping),
    /// made for landscape pages.
    private static func table(_ rows: [Row]) -> HTML {
        let body = rows.enumerated().map { index, row -> [HTML] in
            let item: HTML = "\(row.kind == "exception" ? "exception" : "question") \(ReportMarkup.wholeId(row.id))"
            let subject = ReportMarkup.wholeId(row.subject)
            let what: HTML = row.kind == "exception"
                ? "rated app \(row.ratedApp.map { String($0) } ?? "—"), \(ReportMarkup.text(row.ratedAge))"
                : ReportMarkup.text(row.topic) + (row.changeId.map { ", \($0)" as HTML } ?? .empty)
            let asked = row.askedAt == nil && row.failedAt != nil
                ? "tried " + ReportMarkup.shortTime(row.failedAt)
                : ReportMarkup.shortTime(row.askedAt, otherwise: "not on record") + (row.sentVia.map { "<br>via \($0)" as HTML } ?? .empty)
            var answer = outcome(row.answer)
            if let error = row.failedError { answer += ": \(error)" }
            if let seconds = row.timeToAnswerSeconds { answer += " after \(ReportFormat.duration(seconds: seconds))" }
            if let rescinded = row.rescindedAt {
                answer += ", rescinded \(ReportMarkup.shortTime(rescinded))"
                answer += "; app told \(ReportMarkup.shortTime(row.toldAt, otherwise: "not on record")), feature closed \(ReportMarkup.shortTime(row.closedAt, otherwise: "not on record"))"
            }
            var answered: HTML = .empty
            if row.answeredAt != nil || row.answeredBy != nil {
                let who: HTML = row.answeredBy == nil || row.answeredBy == "not disclosed by platform"
                    ? "guardian not disclosed" : "by \(ReportMarkup.wholeId(row.answeredBy))"
                answered = "<br>" + ReportMarkup.shortTime(row.answeredAt) + " " + shortChannel(row.answerChannel) + " " + who
            }
            return [
                ReportMarkup.cell(HTML(text: String(index + 1)), "n"),
                ReportMarkup.cell(item + "<br>" + subject),
                ReportMarkup.cell(ReportMarkup.wholeId(row.app) + "<br>" + what),
                ReportMarkup.cell(asked),
                ReportMarkup.cell(answer + answered),
                ReportMarkup.cell(ReportMarkup.positions(row.evidencePositions)),
            ]
        }
        return ReportMarkup.table(columns: [("#", "num"), ("Item and subject", ""), ("App and topic", ""), ("Asked (UTC)", ""),
                                            ("Outcome; answered (UTC), how, by whom", ""), ("Evidence", "")],
                                  rows: body, className: "data register")
    }

    /// "message", "in person", or a dash, for the register's answer line.
    static func shortChannel(_ channel: String?) -> HTML {
        switch channel {
        case "message"?: return "by message,"
        case "inPerson"?: return "in person,"
        case let other?: return "\(other),"
        case nil: return .empty
        }
    }

    /// An outcome word with its colour mark (the word carries the meaning; the colour matches the chart).
    static func outcome(_ answer: String) -> HTML {
        guard let outcome = ConsentOutcome(registerAnswer: answer) else { return HTML(text: answer) }
        return "<span class=\"outcome \(outcome.cssClass)\">\(outcome.label)</span>"
    }

    /// "by g_2b81d4", or "who answered: not disclosed by platform" (the register's words for a
    /// platform that does not say), or a dash.
    static func answeredBy(_ guardian: String?) -> HTML {
        guard let guardian else { return "by \(ReportMarkup.none())" }
        if guardian == "not disclosed by platform" { return "guardian \(guardian)" }
        return "by \(ReportMarkup.id(guardian))"
    }

    /// "by message", "in person", or nothing.
    static func channel(_ channel: String?) -> HTML {
        switch channel {
        case "message"?: return "by message"
        case "inPerson"?: return "in person"
        case let other?: return "channel \(other)"
        case nil: return "channel \(ReportMarkup.none())"
        }
    }

    private static func lines(_ parts: [HTML]) -> HTML {
        "<ul class=\"plain\">\(parts.map { "<li>\($0)</li>" as HTML })</ul>"
    }
}

extension ConsentRegisterRow {
    /// The outcome the chart counts it under, nil for an answer the schema does not know.
    var outcome: ConsentOutcome? { ConsentOutcome(registerAnswer: answer) }
}
