import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportHTML

/// The reports a regulator asks for: the regulator report for a jurisdiction and period (shown as
/// its printable page, with its charts, or downloaded as JSON or CSV), with the same bytes as
/// `GET /v1/logs/{log}/reports/regulator` and `consent-ledger report regulator`.
public enum ReportsPage {
    /// Jurisdictions offered first (any ISO 3166 code or EU may be typed).
    static let suggested = ["US-TX", "US-UT", "US-LA", "US-CA", "US", "GB", "EU"]

    /// The page for the signed-in `key`.
    public static func render(log: String, key: APIKey) -> String {
        let options = suggested.map { code -> HTML in "<option value=\"\(code)\"></option>" }
        return ConsolePage.document(title: "Regulator report", key: key, log: log, body: """
            <p>One jurisdiction and period: what was asked, answered and decided, the violations found, with charts.
            The report is sealed (its SHA-256 is on every page and in the file) and is the same bytes as
            <code>consent-ledger report regulator</code> gives for the same choices.</p>
            <form method="get" action="/console/logs/\(log)/reports/regulator" class="filters" id="regulator-form">
            <div><label for="jurisdiction">Jurisdiction</label>
            <input id="jurisdiction" name="jurisdiction" list="jurisdictions" required spellcheck="false" aria-describedby="jurisdiction-help">
            <datalist id="jurisdictions">\(options)</datalist>
            <p id="jurisdiction-help" class="help">An ISO 3166 code (US-TX for Texas, GB) or EU.</p></div>
            <div><label for="report-from">From (UTC day)</label><input id="report-from" name="from" type="date" required></div>
            <div><label for="report-to">To (exclusive)</label><input id="report-to" name="to" type="date" required></div>
            <div><label for="report-format">As</label><select id="report-format" name="format">
            <option value="html" selected>a printable page, with charts</option><option value="json">sealed JSON</option><option value="csv">CSV</option>
            </select></div>
            <div><button type="submit">Make the report</button></div>
            </form>
            <p>The consent register, filtered and paged, is under <a href="/console/logs/\(log)/register">Consent register</a>.</p>
            """)
    }
}
