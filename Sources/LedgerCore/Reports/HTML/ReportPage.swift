/// One HTML report page: a title, a plain-language introduction, the provenance box, optional
/// contents, the report's sections and a footer. Every report kind renders through it, so all
/// three look and read alike.
struct ReportPage {
    /// The browser tab's title.
    var documentTitle: String
    /// The `h1`.
    var heading: String
    /// A line under the heading (what it covers).
    var subtitle: String
    /// What the report is and how to read it, a paragraph each.
    var lead: [String]
    /// The report's parameters as (label, value) rows of the provenance box.
    var parameters: [(String, HTML)]
    /// Where it was computed.
    var provenance: Provenance
    /// Sections to list at the top as (anchor, title); none for short reports.
    var contents: [(String, String)] = []
    /// The sections.
    var body: HTML

    /// What every sealed report states about where it comes from (decision 0011).
    struct Provenance {
        /// `ledger.log`.
        var log: String
        /// `ledger.position`.
        var position: Int
        /// `ledger.headHash`.
        var headHash: String
        /// `software`.
        var software: String
        /// `sha256`: the seal of the JSON form.
        var sha256: String
        /// Whether the seal matches the rest of the JSON this page was rendered from.
        var sealMatches: Bool

        /// Reads `ledger`, `software` and `sha256` of a report, and checks the seal.
        init(_ report: ReportNode) throws {
            let ledger = try report.object("ledger")
            log = try ledger.string("log")
            position = try ledger.int("position")
            headHash = try ledger.string("headHash")
            software = try report.string("software")
            sha256 = try report.string(ReportSeal.member)
            sealMatches = ReportSeal.verify(report.value)
        }
    }

    /// The whole document.
    func render() -> String {
        var page: HTML = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(LedgerSoftware.name)">
            <title>\(documentTitle)</title>
            <style>
            \(HTML(markup: ReportStyle.css))</style>
            </head>
            <body>
            <header>
            <p class="kicker">ConsentLedger report</p>
            <h1>\(heading)</h1>
            <p class="subtitle">\(subtitle)</p>

            """
        for paragraph in lead { page += "<p class=\"lead\">\(paragraph)</p>\n" }
        page += "</header>\n"
        page += provenanceBox()
        if !contents.isEmpty {
            let items = contents.map { anchor, title -> HTML in "<li><a href=\"#\(anchor)\">\(title)</a></li>" }
            page += "<nav class=\"contents\" aria-label=\"Contents\"><strong>Contents</strong><ol>\(items)</ol></nav>\n"
        }
        page += "<main>\n\(body)</main>\n"
        page += """
            <footer>
            <p>Rendered by \(LedgerSoftware.name) from the sealed JSON report with sha256 \(ReportMarkup.id(provenance.sha256)), computed by \(provenance.software) on log \(provenance.log) at position \(provenance.position). The page holds no time of rendering: the same report always gives the same page.</p>
            </footer>
            </body>
            </html>

            """
        return page.markup
    }

    /// The box that says what the report was computed from and how to check it.
    private func provenanceBox() -> HTML {
        let p = provenance
        var rows = parameters
        rows.append(("Computed at", "log \(ReportMarkup.id(p.log)), position \(p.position) (the last event taken into account)"))
        rows.append(("Chain hash there", ReportMarkup.id(p.headHash)))
        rows.append(("Software", ReportMarkup.id(p.software)))
        rows.append(("JSON sha256", ReportMarkup.id(p.sha256)))
        let list = rows.map { label, value -> HTML in "<dt>\(label)</dt><dd>\(value)</dd>" }
        let seal: HTML = p.sealMatches
            ? "<p class=\"check-ok\">Checked while rendering: this sha256 matches the content of the JSON report this page shows.</p>\n"
            : "<p class=\"warning\">Warning: the sha256 member does not match the content of the JSON this page was rendered from. "
                + "The JSON was changed after it was sealed, so this page does not show the report as the ledger computed it.</p>\n"
        return """
            <section class="provenance" aria-labelledby="provenance-title">
            <h2 id="provenance-title">Where this report comes from</h2>
            <dl>\(list)</dl>
            \(seal)<p>How to check it: the JSON form of this report carries sha256 \(ReportMarkup.id(p.sha256)); remove the sha256 member, write the rest as RFC 8785 canonical JSON and hash it with SHA-256: the result must be that value. The chain hash is what <code>consent-ledger verify --log \(p.log)</code> recomputes at position \(p.position), so the report can be tied to the ledger's own records. This HTML page is a rendering of that JSON and cannot contain its own hash: the command that wrote it prints the page's SHA-256 and saves it beside it as <code>FILE.sha256</code>.</p>
            </section>

            """
    }
}
