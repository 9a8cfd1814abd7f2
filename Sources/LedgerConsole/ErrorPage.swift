import LedgerCore
import LedgerReportHTML

/// A console page for a request that failed: what went wrong and what to do, never a stack trace.
public enum ErrorPage {
    /// The page for `status` (e.g. 403) with `detail` and, when known, `hint`; `key` is the
    /// signed-in key, if any, for the header.
    public static func render(status: Int, title: String, detail: String, hint: String?, key: APIKey?) -> String {
        let help: HTML = hint.map { "<p class=\"hint\">\($0)</p>" } ?? .empty
        return ConsolePage.document(title: title, key: key, body: """
            <p class="alert" role="alert">\(detail)</p>
            \(help)
            <p><a href="/console">Back to the console</a> (HTTP status \(status))</p>
            """)
    }
}
