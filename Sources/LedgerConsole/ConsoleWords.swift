import LedgerReportHTML

/// The console's prose in words: the narrative's sentences and the rules' details name values by
/// their keys (`guardianDeclared`, `SUPERVISED_APPROVAL_PENDING`, `13to15`); each such key is
/// printed in ``ReportLabels``' words with the key in a `title`, the rest of the text as it is.
public enum ConsoleWords {
    /// `text` with every camel-case key, SCREAMING_SNAKE key and legal category in words.
    public static func prose(_ text: String) -> HTML {
        // camelCase (a lower-case start of two letters or more, so `iOS` stays), Play's
        // SCREAMING_SNAKE (an underscore, so `ID` and `UTC` stay), and the legal categories.
        let key = #/\b(?:[a-z]{2,}(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}(?:_[A-Z]+)+|under13|13to15|16to17|18toMajority)\b/#
        var html: HTML = .empty
        var rest = Substring(text)
        while let match = rest.firstMatch(of: key) {
            html += HTML(text: String(rest[rest.startIndex..<match.range.lowerBound]))
            html += ReportLabels.labelled(String(match.output))
            rest = rest[match.range.upperBound...]
        }
        return html + HTML(text: String(rest))
    }
}
