import Foundation
import LedgerCore
import LedgerReportHTML

/// Subjects found by the start of their pseudonym: what the console answers when the "Find a
/// subject" form names no one subject, and when a subject's page is asked for a pseudonym the log
/// has never seen (then with a 404, in words for a browser user: the near matches, and the form to
/// try again; never a command to run).
public enum SubjectSearchPage {
    /// What the page shows.
    public struct Content: Sendable {
        /// The log.
        public var log: String
        /// What the user typed.
        public var typed: String
        /// The prefix the matches start with: `typed`, or a shorter start of it when nothing
        /// starts with all of it.
        public var prefix: String
        /// The subjects found, in pseudonym order.
        public var matches: [SubjectEntry]
        /// Whether more subjects start with ``prefix`` than are listed.
        public var more: Bool
        /// True when `typed` was asked for as a subject's page and the log has no such subject.
        public var notFound: Bool
        /// How far the projections the matches come from had folded, and the log's head.
        public var projectedThrough: Int64, head: Int64

        /// The content from its parts.
        public init(log: String, typed: String, prefix: String, matches: [SubjectEntry], more: Bool, notFound: Bool,
                    projectedThrough: Int64, head: Int64) {
            self.log = log
            self.typed = typed
            self.prefix = prefix
            self.matches = matches
            self.more = more
            self.notFound = notFound
            self.projectedThrough = projectedThrough
            self.head = head
        }
    }

    /// The page for the signed-in `key`.
    public static func render(_ content: Content, key: APIKey) -> String {
        let log = content.log
        let said: HTML
        if content.notFound {
            said = "<p class=\"alert\" role=\"alert\" id=\"subject-not-found\">This log has no subject <code>\(content.typed)</code>. "
                + "Check the pseudonym: it may have been mistyped or cut short when it was copied.</p>"
        } else if content.prefix == content.typed && !content.matches.isEmpty {
            said = "<p id=\"search-said\">\(content.matches.count)\(content.more ? " or more" : "") subject\(content.matches.count == 1 && !content.more ? "" : "s") of this log start with <code>\(content.typed)</code>.</p>"
        } else {
            said = "<p id=\"search-said\">No subject of this log starts with <code>\(content.typed)</code>.</p>"
        }
        let offer: HTML
        if content.matches.isEmpty {
            offer = "<p id=\"search-none\">Nothing close to it was found. Try the first few characters of the pseudonym, or find the subject through the <a href=\"/console/logs/\(log)/register\">consent register</a>.</p>"
        } else {
            let rows = content.matches.map { entry -> HTML in
                let age: HTML = entry.ageCategory.map { ReportLabels.labelled($0) } ?? "<span class=\"empty\">no age signal</span>"
                return """
                <tr><td><a href="/console/logs/\(log)/subjects/\(entry.subject)"><code class="id">\(entry.subject)</code></a>\(entry.erased ? " (erased)" : "")</td>
                <td>\(age)</td><td class="num">\(Int(entry.consentItems))</td><td class="num">\(Int(entry.denials))</td>
                <td class="num">\(Int(entry.rescissions))</td><td class="num">\(Int(entry.violations))</td>
                <td class="num"><a href="/console/logs/\(log)/events/\(Int(entry.lastPosition))">\(Int(entry.lastPosition))</a></td></tr>
                """
            }
            let lead: HTML = content.prefix == content.typed ? .empty
                : "<p>Subjects that start with <code>\(content.prefix)</code>, the first \(content.prefix.count) characters of what you typed:</p>"
            offer = """
                \(lead)
                <table class="data" id="subject-matches">
                <caption>Subjects starting with \(content.prefix)\(content.more ? ": the first \(content.matches.count), type more of the pseudonym to narrow them" : "")</caption>
                <thead><tr><th scope="col">subject</th><th scope="col">age category</th><th scope="col">questions and exceptions</th>
                <th scope="col">denials</th><th scope="col">consents withdrawn</th><th scope="col">rule violations</th><th scope="col">last event</th></tr></thead>
                <tbody>\(rows)</tbody>
                </table>
                """
        }
        let lag: HTML = content.projectedThrough < content.head
            ? "<p class=\"help\">The list is read from the ledger's projections, which have folded the log to position \(Int(content.projectedThrough)) of \(Int(content.head)): a subject seen only in the newest events may not be listed yet.</p>"
            : .empty
        let body: HTML = """
            \(said)
            \(offer)
            \(lag)
            <form method="get" action="/console/logs/\(log)/subjects" class="find" id="search-again">
            <label for="pseudonym">Pseudonym, or its first characters</label>
            <input id="pseudonym" name="pseudonym" value="\(content.typed)" required spellcheck="false" autocomplete="off">
            <button type="submit">Find</button>
            </form>
            """
        return ConsolePage.document(title: content.notFound ? "Subject not found" : "Find a subject", key: key, log: log, body: body)
    }
}
