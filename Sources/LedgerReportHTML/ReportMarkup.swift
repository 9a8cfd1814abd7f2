import LedgerCore
/// The small pieces every HTML report is built from: absent values, ids, times, evidence, the
/// erased marker, tables and sections. Values from the report are always escaped (``HTML``).
enum ReportMarkup {
    /// An absent value: an em dash, or a word (`none`, `not answered`), in a muted style.
    static func none(_ word: String = "—") -> HTML {
        "<span class=\"none\">\(word)</span>"
    }

    /// Text, or ``none(_:)`` when nil.
    static func text(_ value: String?, otherwise word: String = "—") -> HTML {
        value.map { HTML(text: $0) } ?? none(word)
    }

    /// An identifier (event id, hash, question id): monospace, free to wrap anywhere.
    /// Breaks are offered after `-`, `.`, `/` and `:` (a UUID wraps at its hyphens), and
    /// anywhere else when nothing else fits (a 64-hex hash).
    static func id(_ value: String) -> HTML {
        var markup = HTML.escape(value)
        if markup.contains(where: { $0 == "-" || $0 == "." || $0 == "/" || $0 == ":" }) {
            // After escaping, these characters only come from the value (references use & # ;).
            var broken = ""
            broken.reserveCapacity(markup.utf8.count + 16)
            for character in markup {
                broken.append(character)
                if character == "-" || character == "." || character == "/" || character == ":" { broken += "<wbr>" }
            }
            markup = broken
        }
        return "<code class=\"id\">\(HTML(markup: markup))</code>"
    }

    /// An identifier that is never broken across lines (for wide tables on landscape pages, where
    /// a broken pseudonym would be misread): monospace, no break opportunities.
    static func wholeId(_ value: String?, otherwise word: String = "—") -> HTML {
        value.map { "<code class=\"id whole\">\($0)</code>" } ?? none(word)
    }

    /// An identifier, or ``none(_:)`` when nil.
    static func id(_ value: String?, otherwise word: String = "—") -> HTML {
        value.map { id($0) } ?? none(word)
    }

    /// An RFC 3339 time as people read it (``ReportFormat/timestamp(_:)``), the exact text kept
    /// in `datetime`.
    static func time(_ value: String?, otherwise word: String = "—") -> HTML {
        guard let value else { return none(word) }
        // The date, the time and the zone each stay whole; a narrow column breaks between them.
        let parts = ReportFormat.timestamp(value).split(separator: " ").map { "<span class=\"nw\">\(String($0))</span>" as HTML }
        return "<time datetime=\"\(value)\">\(HTML.join(parts, separator: " "))</time>"
    }

    /// A time without its zone (`2026-09-01 08:27:31`), for a table whose header says UTC.
    static func shortTime(_ value: String?, otherwise word: String = "—") -> HTML {
        guard let value else { return none(word) }
        let text = ReportFormat.timestamp(value).replacingOccurrences(of: " UTC", with: "")
        return "<time class=\"nw\" datetime=\"\(value)\">\(text)</time>"
    }

    /// A count, with thousands separated.
    static func count(_ value: Int) -> HTML { HTML(text: ReportFormat.count(value)) }

    /// A duration in words with the exact seconds beside it, or ``none(_:)`` when nil.
    static func duration(seconds: Int?, otherwise word: String = "—") -> HTML {
        guard let seconds else { return none(word) }
        return "\(ReportFormat.duration(seconds: seconds)) <span class=\"exact\">(\(ReportFormat.count(seconds)) s)</span>"
    }

    /// The visible marker of an erased subject: its key was destroyed, its personal data is gone.
    static let erasedMarker: HTML =
        "<span class=\"erased\" title=\"This subject was erased: their key was destroyed and their personal data can no longer be read.\">erased</span>"

    /// A subject's pseudonym, with the erased marker when `erased`.
    static func subject(_ pseudonym: String?, erased: Bool = false) -> HTML {
        let name: HTML = pseudonym.map { id($0) } ?? none()
        return erased ? name + " " + erasedMarker : name
    }

    /// The evidence of a row: each position with its event id, "position 12 · 3f2b…". Positions
    /// and ids are paired when the lists are as long as each other, else listed apart.
    static func evidence(positions: [Int], eventIds: [String]) -> HTML {
        if positions.isEmpty && eventIds.isEmpty { return none("no evidence cited") }
        var items: [HTML] = []
        if positions.count == eventIds.count {
            for (position, eventId) in zip(positions, eventIds) {
                items.append("<li><span class=\"pos\">#\(position)</span> \(id(eventId))</li>")
            }
        } else {
            items += positions.map { "<li><span class=\"pos\">#\($0)</span></li>" }
            items += eventIds.map { "<li>\(id($0))</li>" }
        }
        return "<ul class=\"evidence\">\(items)</ul>"
    }

    /// Positions only (`#12 #15`), for rows whose evidence is positions.
    static func positions(_ positions: [Int]) -> HTML {
        if positions.isEmpty { return none("no evidence cited") }
        return HTML.join(positions.map { "<span class=\"pos\">#\($0)</span>" }, separator: " ")
    }

    /// A table: a header row that repeats on every printed page, then the rows (each already a
    /// list of `<td>`/`<th>` cells). `columns` are (header, class) pairs; class `num` right-aligns.
    static func table(columns: [(String, String)], rows: [[HTML]], caption: String? = nil, className: String = "data") -> HTML {
        let head = columns.map { header, cls -> HTML in
            cls.isEmpty ? "<th scope=\"col\">\(header)</th>" : "<th scope=\"col\" class=\"\(cls)\">\(header)</th>"
        }
        let captionMarkup: HTML = caption.map { "<caption>\($0)</caption>\n" } ?? .empty
        let body = rows.map { cells -> HTML in "<tr>\(cells)</tr>\n" }
        let classes = className + (rows.count <= keepWholeData ? " keep" : "")
        return "<table class=\"\(classes)\">\n\(captionMarkup)<thead><tr>\(head)</tr></thead>\n<tbody>\n\(body)</tbody>\n</table>\n"
    }

    /// A data cell.
    static func cell(_ content: HTML, _ className: String = "") -> HTML {
        className.isEmpty ? "<td>\(content)</td>" : "<td class=\"\(className)\">\(content)</td>"
    }

    /// A right-aligned numeric cell holding a count.
    static func countCell(_ value: Int) -> HTML { cell(count(value), "num") }

    /// Tables of facts and figures of at most this many rows are kept on one page (class `keep`),
    /// so that no short table leaves a lone row on the next page; longer ones break between rows.
    static let keepWhole = 15
    /// The same for data tables, whose rows can be tall: at most this many rows are kept together.
    static let keepWholeData = 8

    /// A table of labelled facts in words: label, then the value (left-aligned, free to wrap).
    static func facts(_ rows: [(String, HTML)], caption: String? = nil) -> HTML {
        let captionMarkup: HTML = caption.map { "<caption>\($0)</caption>\n" } ?? .empty
        let body = rows.map { label, value -> HTML in "<tr><th scope=\"row\">\(label)</th><td>\(value)</td></tr>\n" }
        return "<table class=\"facts\(rows.count <= keepWhole ? " keep" : "")\">\n\(captionMarkup)<tbody>\n\(body)</tbody>\n</table>\n"
    }

    /// A table of labelled figures: label, value (right-aligned) and what it means.
    static func figures(_ rows: [(String, HTML, HTML?)], caption: String? = nil) -> HTML {
        let captionMarkup: HTML = caption.map { "<caption>\($0)</caption>\n" } ?? .empty
        let body = rows.map { label, value, note -> HTML in
            "<tr><th scope=\"row\">\(label)</th><td class=\"num\">\(value)</td><td class=\"explain\">\(note ?? .empty)</td></tr>\n"
        }
        return "<table class=\"figures\(rows.count <= keepWhole ? " keep" : "")\">\n\(captionMarkup)<tbody>\n\(body)</tbody>\n</table>\n"
    }

    /// Key figures as a row of boxes, for the top of a report.
    static func keyFigures(_ items: [(value: String, label: String)]) -> HTML {
        let boxes = items.map { item -> HTML in
            "<div class=\"figure\"><span class=\"value\">\(item.value)</span><span class=\"label\">\(item.label)</span></div>"
        }
        return "<div class=\"key-figures\">\(boxes)</div>\n"
    }

    /// A section with its heading (`h2`) and an anchor.
    static func section(id: String, title: String, intro: String? = nil, _ body: HTML) -> HTML {
        let introMarkup: HTML = intro.map { "<p class=\"intro\">\($0)</p>\n" } ?? .empty
        return "<section id=\"\(id)\">\n<h2>\(title)</h2>\n\(introMarkup)\(body)</section>\n"
    }

    /// A subsection heading (`h3`) and its body.
    static func subsection(_ title: String, intro: String? = nil, _ body: HTML) -> HTML {
        let introMarkup: HTML = intro.map { "<p class=\"intro\">\($0)</p>\n" } ?? .empty
        return "<div class=\"subsection\">\n<h3>\(title)</h3>\n\(introMarkup)\(body)</div>\n"
    }

    /// Prose written with Markdown's inline code (the rules catalogue's statements: "`requiredRegulatoryFeatures`
    /// containing …"): escaped, each `…` span as `<code>`, so that no backtick is printed. A lone
    /// backtick stays as it is.
    static func prose(_ text: String) -> HTML {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        let spans = (parts.count - 1) / 2
        var html: HTML = .empty
        for (index, part) in parts.enumerated() {
            if index % 2 == 0 {
                html += HTML(text: part)
            } else if (index + 1) / 2 <= spans {
                html += "<code>\(part)</code>"
            } else {
                html += HTML(text: "`" + part)
            }
        }
        return html
    }

    /// The report's `notices` (``ReportNotice``), each a warning paragraph: what a reader must know
    /// before trusting the figures, printed before them on the first page (decision 0069).
    static func notices(_ notices: [ReportNotice]) -> HTML {
        self.notices(messages: notices.map(\.message))
    }

    /// One warning paragraph per notice's message.
    private static func notices(messages: [String]) -> HTML {
        var html: HTML = .empty
        for message in messages {
            html += paragraph(message, className: "warning")
        }
        return html
    }

    /// A paragraph of text (markup, not escaped: callers pass text built from escaped parts).
    static func paragraph(_ text: String, className: String = "") -> HTML {
        className.isEmpty ? "<p>\(text)</p>\n" : "<p class=\"\(className)\">\(text)</p>\n"
    }
}
