import LedgerCore
import LedgerReportModel
/// One HTML report page, in the order a reader who files it needs: the title and who issued it,
/// a summary of findings, what the report is, the contents and the report's sections, and last an
/// appendix with the method: what it was computed from and how to check its seal. Printed, every
/// page carries a running header (the report and its seal) and footer (issuer, date of issue, page
/// N of M), from CSS page-margin boxes (decision 0018). Every report kind renders through it, so
/// all three look and read alike.
struct ReportPage {
    /// Portrait for reading, landscape for a wide table (the consent register).
    enum Orientation { case portrait, landscape }

    /// The browser tab's title.
    var documentTitle: String
    /// The `h1`.
    var heading: String
    /// A line under the heading (what it covers).
    var subtitle: String
    /// The running header's words on every printed page (short: the report and its scope).
    var runningTitle: String
    /// What the report found, first thing on the first page.
    var summary: HTML
    /// What the report is and how to read it, a paragraph each.
    var lead: [String]
    /// The report's parameters as (label, value) rows of the method appendix.
    var parameters: [(String, HTML)]
    /// Where it was computed.
    var provenance: Provenance
    /// Who issued it and when (the policy file's `issuer` and `dateOfIssue`).
    var policy: ReportPolicy
    /// Sections to list at the top as (anchor, title); none for short reports.
    var contents: [(String, String)] = []
    /// The sections.
    var body: HTML
    /// The printed pages' orientation.
    var orientation: Orientation = .portrait

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

        /// A typed report's `ledger`, `software` and `sha256` (which must be there: the report is
        /// sealed), and whether that seal matched the JSON it was read from.
        init(ledger: ReportLedger, software: String, sha256: String?, sealMatches: Bool, reportName: String) throws {
            guard let sha256 else {
                throw LedgerError(.missingField, "the \(reportName) has no member \(ReportSeal.member)", field: ReportSeal.member,
                                  hint: "Render the JSON exactly as `consent-ledger report … --format json` wrote it.")
            }
            log = ledger.log
            position = Int(ledger.position)
            headHash = ledger.headHash
            self.software = software
            self.sha256 = sha256
            self.sealMatches = sealMatches
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
            <meta name="page-orientation" content="\(orientation == .landscape ? "landscape" : "portrait")">
            <title>\(documentTitle)</title>
            <style>
            \(HTML(markup: ReportStyle.css + (orientation == .landscape ? ReportStyle.landscape : "")))\(HTML(markup: pageMarginCSS()))</style>
            </head>
            <body>
            <header>
            <p class="kicker">ConsentLedger report</p>
            <h1>\(heading)</h1>
            <p class="subtitle">\(subtitle)</p>
            \(issueLine())
            </header>

            """
        page += ReportMarkup.section(id: "findings", title: "Summary of findings", summary)
        page += "<section class=\"about\" aria-labelledby=\"about-title\">\n<h2 id=\"about-title\">About this report</h2>\n"
        for paragraph in lead { page += "<p class=\"lead\">\(paragraph)</p>\n" }
        page += "<p class=\"lead\">How it was computed and how to check its seal: <a href=\"#method\">Appendix: method and verification</a>.</p>\n</section>\n"
        if !contents.isEmpty {
            let items = (contents + [("method", "Appendix: method and verification")])
                .map { anchor, title -> HTML in "<li><a href=\"#\(anchor)\">\(title)</a></li>" }
            page += "<nav class=\"contents\" aria-label=\"Contents\"><strong>Contents</strong><ol>\(items)</ol></nav>\n"
        }
        page += "<main>\n\(body)</main>\n"
        page += signOffBlock()
        page += methodAppendix()
        page += """
            <footer>
            <p>Rendered by \(LedgerSoftware.name) from the sealed JSON report with sha256 \(ReportMarkup.id(provenance.sha256)), computed by \(provenance.software) on log \(provenance.log) at position \(provenance.position). The page holds no time of rendering: the same report and policy file always give the same page.</p>
            </footer>
            </body>
            </html>

            """
        return page.markup
    }

    /// The sign-off a filed report carries: who prepared and who reviewed it (the policy file's
    /// `signOff`, else a line to write on), each with lines for a signature and a date, and the date
    /// of issue.
    private func signOffBlock() -> HTML {
        func person(_ role: String, _ name: String?) -> HTML {
            let who: HTML = name.map { "<strong>\($0)</strong>" as HTML } ?? "<span class=\"line\"></span>"
            return "<tr><th scope=\"row\">\(role)</th><td>\(who)</td><td>Signature <span class=\"line\"></span></td>"
                + "<td>Date <span class=\"line short\"></span></td></tr>"
        }
        let issued: HTML = policy.dateOfIssue.map { "Date of issue: <strong>\($0)</strong>." as HTML }
            ?? "Date of issue: <span class=\"line short\"></span>"
        return "<section id=\"sign-off\" class=\"signoff\"><h2>Sign-off</h2>\n<table class=\"signoff\">"
            + person("Prepared by", policy.signOff?.preparedBy) + person("Reviewed by", policy.signOff?.reviewedBy)
            + "</table>\n<p>\(issued)</p>\n</section>\n"
    }

    /// "Issued by … (contact); date of issue …", saying plainly what the policy file left out.
    private func issueLine() -> HTML {
        guard policy.issuer != nil || policy.dateOfIssue != nil else {
            return "<p class=\"issue\"><span class=\"none\">Issuing organisation and date of issue: not given</span> "
                + "<span class=\"note\">(a policy file’s <code>issuer</code> and <code>dateOfIssue</code> give them: "
                + "<code>--policy FILE</code>)</span></p>"
        }
        let by: HTML = policy.issuer.map { issuer in
            "Issued by <strong>\(issuer.organisation)</strong>" + (issuer.contact.map { " (\($0))" as HTML } ?? .empty)
        } ?? "<span class=\"none\">Issuing organisation not given</span>"
        let on: HTML = policy.dateOfIssue.map { "date of issue <strong>\($0)</strong>" as HTML }
            ?? "<span class=\"none\">no date of issue given</span>"
        return "<p class=\"issue\">\(by); \(on).</p>"
    }

    /// The running header and footer of every printed page, as CSS page-margin boxes: the report,
    /// its seal, who issued it and when, and "Page N of M".
    func pageMarginCSS() -> String {
        let issuer = policy.issuer.map(\.organisation) ?? "issuer not named"
        let date = policy.dateOfIssue.map { "issued " + $0 } ?? "no date of issue"
        let seal = "seal sha256 " + provenance.sha256.prefix(16) + "…"
        let box = "font-family: \"Helvetica Neue\", Helvetica, Arial, \"Liberation Sans\", \"DejaVu Sans\", sans-serif; font-size: 7.5pt; color: #4a4a4a;"
        return """
            @page {
              @top-left { content: \(Self.cssString(runningTitle)); \(box) vertical-align: bottom; }
              @top-right { content: \(Self.cssString(seal)); \(box) vertical-align: bottom; }
              @bottom-left { content: \(Self.cssString(issuer + " · " + date)); \(box) vertical-align: top; }
              @bottom-right { content: "Page " counter(page) " of " counter(pages); \(box) vertical-align: top; }
            }

            """
    }

    /// `text` as a CSS string literal that cannot end the string or the style element.
    static func cssString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case "<", ">", "&": out += "\\" + String(scalar.value, radix: 16) + " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The appendix that says what the report was computed from and how to check it.
    private func methodAppendix() -> HTML {
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
            <section class="provenance appendix" id="method" aria-labelledby="method-title">
            <h2 id="method-title">Appendix: method and verification</h2>
            <dl>\(list)</dl>
            \(seal)<p>How to check it: the JSON form of this report carries sha256 \(ReportMarkup.id(p.sha256)); remove the sha256 member, write the rest as RFC 8785 canonical JSON and hash it with SHA-256: the result must be that value. The chain hash is what <code>consent-ledger verify --log \(p.log)</code> recomputes at position \(p.position), so the report can be tied to the ledger's own records. This HTML page is a rendering of that JSON and cannot contain its own hash: the command that wrote it prints the page's SHA-256 and saves it beside it as <code>FILE.sha256</code>.</p>
            </section>

            """
    }
}
