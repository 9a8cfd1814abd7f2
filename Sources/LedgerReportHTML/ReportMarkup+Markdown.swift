import Foundation

extension ReportMarkup {
    /// A policy's statement, written by its author in a small part of Markdown (issue 39): paragraphs
    /// split by blank lines, lists of lines that start with `- ` or `* `, `code`, **strong** and
    /// *emphasis*; a link `[text](address)` prints its text and, in brackets, its address, since a
    /// filed page links nowhere. Everything else is escaped text, so no markup character is printed
    /// where it marks something up, and nothing the author wrote becomes HTML of its own.
    static func markdown(_ text: String) -> HTML {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        let blocks = normalized.components(separatedBy: "\n").split(whereSeparator: { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        var html: HTML = "<div class=\"statement\">"
        for block in blocks {
            let lines = block.map { $0.trimmingCharacters(in: .whitespaces) }
            if lines.allSatisfy({ $0.hasPrefix("- ") || $0.hasPrefix("* ") }) {
                html += "<ul>" + HTML.join(lines.map { "<li>\(inline(String($0.dropFirst(2))))</li>" as HTML }) + "</ul>"
            } else {
                html += "<p>" + HTML.join(lines.map(inline), separator: "<br>") + "</p>"
            }
        }
        return html + "</div>\n"
    }

    /// One line's inline Markdown: code spans as ``prose(_:)`` does, and outside them strong,
    /// emphasis and links.
    static func inline(_ line: String) -> HTML {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        let spans = (parts.count - 1) / 2
        var html: HTML = .empty
        for (index, part) in parts.enumerated() {
            if index % 2 == 1, (index + 1) / 2 <= spans {
                html += "<code>\(part)</code>"
            } else {
                html += HTML(markup: emphasis(HTML(text: (index % 2 == 1 ? "`" : "") + part).markup))
            }
        }
        return html
    }

    /// Strong, emphasis and links in escaped text (escaping leaves `*`, `[`, `]`, `(` and `)` as they are).
    private static func emphasis(_ escaped: String) -> String {
        var text = escaped
        text = text.replacing(#/\[([^\]]+)\]\(([^)\s]+)\)/#) { "\($0.output.1) (\($0.output.2))" }
        text = text.replacing(#/\*\*(\S(?:.*?\S)?)\*\*/#) { "<strong>\($0.output.1)</strong>" }
        text = text.replacing(#/\*(\S(?:.*?\S)?)\*/#) { "<em>\($0.output.1)</em>" }
        return text
    }
}
