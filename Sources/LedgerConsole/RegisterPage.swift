import Foundation
import LedgerCore
import LedgerReportHTML

/// The consent register: who approved what and when, filtered, sorted and paged over the whole
/// log, each entry linked to the events it rests on; and the sealed register report to download.
public enum RegisterPage {
    /// The page of `page` for `query` and the signed-in `key`.
    public static func render(log: String, query: ConsentRegisterEntries.Query, page: ConsentRegisterEntries.Page, key: APIKey) -> String {
        let base = "/console/logs/\(log)/register"
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = TimeZone(identifier: "UTC")
        day.locale = Locale(identifier: "en_US_POSIX")
        func parameters(_ change: (inout ConsentRegisterEntries.Query) -> Void) -> String {
            var q = query
            change(&q)
            var items: [String] = []
            if let status = q.status { items.append("status=\(status)") }
            if let app = q.app { items.append("app=" + (app.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? app)) }
            if let from = q.from { items.append("from=\(day.string(from: from))") }
            if let to = q.to { items.append("to=\(day.string(from: to))") }
            if let disclosed = q.guardianDisclosed { items.append("guardian=\(disclosed ? "disclosed" : "undisclosed")") }
            items.append("sort=\(q.sort.rawValue)")
            items.append("order=\(q.descending ? "desc" : "asc")")
            if q.page > 0 { items.append("page=\(q.page + 1)") }
            return items.joined(separator: "&")
        }
        func option(_ value: String, _ label: String, selected: Bool) -> HTML {
            "<option value=\"\(value)\"\(selected ? " selected" : "")>\(label)</option>"
        }
        let statuses = [option("", "any", selected: query.status == nil)]
            + ConsentRegisterEntries.Query.statuses.map { option($0, Self.label($0), selected: query.status == $0) }
        let apps = [option("", "any", selected: query.app == nil)] + page.apps.map { option($0, $0, selected: query.app == $0) }
        let guardians = [option("", "either", selected: query.guardianDisclosed == nil),
                         option("disclosed", "disclosed", selected: query.guardianDisclosed == true),
                         option("undisclosed", "not disclosed", selected: query.guardianDisclosed == false)]
        let sorts = ConsentRegisterEntries.Sort.allCases.map { option($0.rawValue, Self.label($0), selected: query.sort == $0) }
        let orders = [option("desc", "newest or largest first", selected: query.descending), option("asc", "oldest or smallest first", selected: !query.descending)]
        let rows = page.entries.map { entry -> HTML in
            let evidence = HTML.join(entry.evidence.map { "<a href=\"/console/logs/\(log)/events/\(Int($0))\">\(Int($0))</a>" }, separator: ", ")
            let subject: HTML = entry.subject.map { "<a href=\"/console/logs/\(log)/subjects/\($0)\" title=\"\($0)\"><code>\(Self.short($0))</code></a>" } ?? "—"
            let guardian: HTML = entry.answeredBy.map { "<code title=\"\($0)\">\(Self.short($0))</code>" }
                ?? (entry.answeredAt == nil ? "—" : "<span class=\"empty\">not disclosed</span>")
            return """
            <tr><td>\(Self.time(entry.askedAt))</td><td>\(subject)</td><td>\(entry.app.map { ConsolePage.breakable($0) } ?? "—")</td>
            <td>\(entry.topic.map { ReportLabels.labelled($0) } ?? ReportLabels.labelled(entry.kind))</td>
            <td class="status \(entry.status)">\(Self.label(entry.status))</td><td>\(Self.time(entry.answeredAt))</td>
            <td>\(guardian)</td>
            <td class="num nowrap">\(entry.waitSeconds.map { HTML(text: Self.wait($0)) } ?? "—")</td><td class="evidence">\(evidence)</td></tr>
            """
        }
        // The totals of each status under the other filters, each a link to that status.
        let allCount = page.statusCounts.values.reduce(0, +)
        let totals: [(String?, String, Int64)] = [(nil, "all", allCount)]
            + ConsentRegisterEntries.Query.statuses.map { (Optional($0), Self.label($0), page.statusCounts[$0] ?? 0) }
        let totalItems = totals.map { status, label, count -> HTML in
            let href = "\(base)?\(parameters { $0.status = status; $0.page = 0 })"
            let inner: HTML = "\(label) <strong data-status=\"\(status ?? "all")\">\(Int(count))</strong>"
            return query.status == status ? "<li aria-current=\"true\" class=\"current\">\(inner)</li>" : "<li><a href=\"\(href)\">\(inner)</a></li>"
        }
        let statusTotals: HTML = """
            <nav aria-label="Entries by status"><ul class="status-totals" id="status-totals">\(totalItems)</ul></nav>
            """
        let first = query.page * ConsentRegisterEntries.pageSize + 1
        let last = query.page * ConsentRegisterEntries.pageSize + page.entries.count
        let pages = max(1, Int((page.total + Int64(ConsentRegisterEntries.pageSize) - 1) / Int64(ConsentRegisterEntries.pageSize)))
        let previous: HTML = query.page > 0 ? "<a href=\"\(base)?\(parameters { $0.page -= 1 })\" rel=\"prev\">Previous page</a>" : .empty
        let next: HTML = query.page + 1 < pages ? "<a href=\"\(base)?\(parameters { $0.page += 1 })\" rel=\"next\">Next page</a>" : .empty
        let firstPage: HTML = query.page > 0 ? "<a href=\"\(base)?\(parameters { $0.page = 0 })\" id=\"first-page\">First page</a>" : .empty
        let lastPage: HTML = query.page + 1 < pages
            ? "<a href=\"\(base)?\(parameters { $0.page = pages - 1 })\" id=\"last-page\">Last page (\(pages))</a>" : .empty
        let period = [query.from.map { "from=\(day.string(from: $0))" }, query.to.map { "to=\(day.string(from: $0))" }].compactMap { $0 }
        let downloads = ["json", "csv", "html"].map { format -> HTML in
            let href = "/console/logs/\(log)/reports/consent-register?" + (period + ["asOf=\(page.position)", "format=\(format)"]).joined(separator: "&")
            return "<li><a href=\"\(href)\" download>\(format.uppercased())</a></li>"
        }
        let empty: HTML = page.total == 0 ? "<p id=\"register-empty\">No entry matches.</p>"
            : "<p id=\"register-empty\">Page \(query.page + 1) is past the last page: \(Int(page.total)) entries match, on \(pages) pages. <a href=\"\(base)?\(parameters { $0.page = pages - 1 })\">Go to the last page</a>.</p>"
        let table: HTML = page.entries.isEmpty ? empty : """
            <table class="data" id="register">
            <caption>Entries \(first) to \(last) of <span id="register-total">\(Int(page.total))</span> (page \(query.page + 1) of \(pages)),
            sorted by \(Self.label(query.sort)), \(query.descending ? "newest or largest first" : "oldest or smallest first")</caption>
            <thead><tr><th scope="col">asked (UTC)</th><th scope="col">subject</th><th scope="col">app</th><th scope="col">topic</th>
            <th scope="col">status</th><th scope="col">answered</th><th scope="col">guardian</th><th scope="col">wait</th><th scope="col">evidence</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table>
            """
        return ConsolePage.document(title: "Consent register", key: key, log: log, wide: true, body: """
            <p>Every permission question and age-rating exception of the log with what became of it, as of position
            \(Int(page.position)) (the head). Each entry links to the events it rests on.</p>
            <form method="get" action="\(base)" class="filters" id="register-filters">
            <div><label for="status">Status</label><select id="status" name="status">\(statuses)</select></div>
            <div><label for="app">App</label><select id="app" name="app">\(apps)</select></div>
            <div><label for="from">Asked from (UTC day)</label><input id="from" name="from" type="date" value="\(query.from.map { day.string(from: $0) } ?? "")"></div>
            <div><label for="to">Asked before</label><input id="to" name="to" type="date" value="\(query.to.map { day.string(from: $0) } ?? "")"></div>
            <div><label for="guardian">Guardian</label><select id="guardian" name="guardian">\(guardians)</select></div>
            <div><label for="sort">Sort by</label><select id="sort" name="sort">\(sorts)</select></div>
            <div><label for="order">Order</label><select id="order" name="order">\(orders)</select></div>
            <div><button type="submit">Show</button></div>
            </form>
            \(statusTotals)
            \(table)
            <nav aria-label="Pages" class="pages">\(firstPage) \(previous) \(next) \(lastPage)</nav>
            <h2>Download the sealed register report</h2>
            <p>The consent register report of this log\(period.isEmpty ? "" : " for the period chosen") as of position \(Int(page.position)),
            sealed: the same bytes as <code>consent-ledger report consent-register</code> (the filters above other than the period are not in it).</p>
            <ul>\(downloads)</ul>
            """)
    }

    /// What a status, as stored, reads as (``ReportLabels/status(_:)``).
    static func label(_ status: String) -> String { ReportLabels.status(status) }

    /// A time of the register as "2026-09-10 12:00" (``ConsolePage/time(_:seconds:)``).
    static func time(_ value: String?) -> HTML { ConsolePage.time(value) }

    /// A pseudonym cut to its first characters (``ConsolePage/short(_:)``).
    static func short(_ pseudonym: String) -> String { ConsolePage.short(pseudonym) }

    static func label(_ sort: ConsentRegisterEntries.Sort) -> String {
        switch sort {
        case .asked: return "when asked"
        case .answered: return "when answered"
        case .subject: return "subject"
        case .app: return "app"
        case .status: return "status"
        case .wait: return "time to answer"
        }
    }

    /// `42 s`, `3 min`, `2 h 5 min`, `4 days`.
    static func wait(_ seconds: Int64) -> String { OverviewPage.duration(seconds) }
}
