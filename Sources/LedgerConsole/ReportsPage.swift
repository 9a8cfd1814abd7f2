import Foundation
import LedgerCore
import LedgerReportHTML

/// The reports a regulator asks for: the regulator report for a jurisdiction and period (shown as
/// its printable page, with its charts, or downloaded as JSON or CSV), with the same bytes as
/// `GET /v1/logs/{log}/reports/regulator` and `consent-ledger report regulator`. The form offers
/// the jurisdictions the log's events name (with their counts and days) and preset periods (last
/// month, last quarter, the days of the chosen jurisdiction's data) that fill the two dates.
public enum ReportsPage {
    /// Jurisdictions offered when the log names none yet (any ISO 3166 code or EU may be typed).
    static let suggested = ["US-TX", "US-UT", "US-LA", "US-CA", "US", "GB", "EU"]

    /// A preset period: its label and its UTC days, `to` exclusive.
    public struct Period: Sendable, Equatable {
        /// The option's value (`last-month`, `last-quarter`).
        public var id: String
        /// What the option says.
        public var label: String
        /// The first day, and the day after the last (`YYYY-MM-DD`).
        public var from: String, to: String
    }

    /// The calendar month and the calendar quarter before the one `today` is in (UTC).
    public static func presets(today: Date) -> [Period] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: today)
        let year = parts.year!, month = parts.month!
        func day(_ y: Int, _ m: Int) -> String {
            // Months before January or after December roll into the year next to it.
            let months = y * 12 + (m - 1)
            return String(format: "%04d-%02d-01", months / 12, months % 12 + 1)
        }
        let quarterStart = (month - 1) / 3 * 3 + 1
        let monthName = DateFormatter()
        monthName.locale = Locale(identifier: "en_US_POSIX")
        monthName.timeZone = calendar.timeZone
        monthName.dateFormat = "MMMM yyyy"
        let lastMonth = calendar.date(byAdding: .month, value: -1, to: today)!
        let quarter = (quarterStart - 1) / 3 == 0 ? (4, year - 1) : ((quarterStart - 1) / 3, year)
        return [
            Period(id: "last-month", label: "Last month (\(monthName.string(from: lastMonth)))", from: day(year, month - 1), to: day(year, month)),
            Period(id: "last-quarter", label: "Last quarter (Q\(quarter.0) \(quarter.1))", from: day(year, quarterStart - 3), to: day(year, quarterStart)),
        ]
    }

    /// The page for the signed-in `key`: `jurisdictions` are the log's (most named first),
    /// `today` dates the preset periods.
    public static func render(log: String, jurisdictions: [ReportFactsJurisdictions.Jurisdiction], today: Date, key: APIKey) -> String {
        let jurisdictionField: HTML
        if jurisdictions.isEmpty {
            let options = suggested.map { code -> HTML in "<option value=\"\(code)\"></option>" }
            jurisdictionField = """
                <input id="jurisdiction" name="jurisdiction" list="jurisdictions" required spellcheck="false" aria-describedby="jurisdiction-help">
                <datalist id="jurisdictions">\(options)</datalist>
                <p id="jurisdiction-help" class="help">No event of this log names a jurisdiction yet: type an ISO 3166 code (US-TX for Texas, GB) or EU.</p>
                """
        } else {
            let options = jurisdictions.map { j -> HTML in
                let name = JurisdictionCatalogue.standard.name(of: j.code).map { " (\($0))" } ?? ""
                let after = ReportsPage.dayAfter(j.lastDay)
                return """
                    <option value="\(j.code)" data-from="\(j.firstDay)" data-to="\(after)">\(j.code)\(name): \(Int(j.events)) event\(j.events == 1 ? "" : "s"), \(j.firstDay) to \(j.lastDay)</option>
                    """
            }
            jurisdictionField = """
                <select id="jurisdiction" name="jurisdiction" required aria-describedby="jurisdiction-help">\(options)</select>
                <p id="jurisdiction-help" class="help">The jurisdictions this log's events name, the most named first, with the days (device clock) their events occurred on.</p>
                """
        }
        let periods = presets(today: today)
        let periodOptions = [HTML("<option value=\"\">choose the dates below</option>")]
            + periods.map { p -> HTML in "<option value=\"\(p.id)\" data-from=\"\(p.from)\" data-to=\"\(p.to)\">\(p.label)</option>" }
            + (jurisdictions.isEmpty ? [] : [HTML("<option value=\"data\" selected>All the days of the jurisdiction's data</option>")])
        return ConsolePage.document(title: "Regulator report", key: key, log: log, body: """
            <p>One jurisdiction and period: what was asked, answered and decided, the violations found, with charts.
            The report is sealed (its SHA-256 is on every page and in the file) and is the same bytes as
            <code>consent-ledger report regulator</code> gives for the same choices.</p>
            <form method="get" action="/console/logs/\(log)/reports/regulator" class="filters" id="regulator-form">
            <div><label for="jurisdiction">Jurisdiction</label>
            \(jurisdictionField)</div>
            <div><label for="report-period">Period</label>
            <select id="report-period" aria-describedby="report-period-help">\(periodOptions)</select>
            <p id="report-period-help" class="help">A preset fills the dates; the dates can still be changed.</p></div>
            <div><label for="report-from">From (UTC day)</label><input id="report-from" name="from" type="date" required></div>
            <div><label for="report-to">To (the day after the last)</label><input id="report-to" name="to" type="date" required></div>
            <div><label for="report-format">As</label><select id="report-format" name="format">
            <option value="html" selected>a printable page, with charts</option><option value="json">sealed JSON</option><option value="csv">CSV</option>
            </select></div>
            <div><button type="submit">Make the report</button></div>
            </form>
            <p>The consent register, filtered and paged, is under <a href="/console/logs/\(log)/register">Consent register</a>.</p>
            """)
    }

    /// The day after `day` (`YYYY-MM-DD`, UTC): a period's exclusive end.
    static func dayAfter(_ day: String) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd"
        guard let date = format.date(from: day) else { return day }
        return format.string(from: date.addingTimeInterval(86_400))
    }
}
