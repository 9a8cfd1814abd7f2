import LedgerReportHTML

/// The sign-in page: one field for an auditor or admin API key, exchanged for a session; the key is
/// sent once in the form's body and never kept by the browser (`autocomplete="off"`).
public enum SignInPage {
    /// The page, with `problem` (why the last attempt failed) shown above the form when given.
    public static func render(problem: String? = nil) -> String {
        let alert: HTML = problem.map { "<p class=\"alert\" role=\"alert\" id=\"sign-in-problem\">\($0)</p>" } ?? .empty
        return ConsolePage.document(title: "Sign in", key: nil, body: """
            <p>Sign in with an auditor or admin API key of the log you are to examine. The key opens a
            session of eight hours on this server; it is not stored in your browser.</p>
            \(alert)
            <form method="post" action="/console/sign-in" class="sign-in">
            <label for="key">API key</label>
            <input id="key" name="key" type="password" autocomplete="off" required spellcheck="false"
                   aria-describedby="key-help"\(problem == nil ? "" : " aria-invalid=\"true\"")>
            <p id="key-help" class="help">It starts with <code>cl_</code>. Ask the ledger's operator for one
            (<code>consent-ledger keys create --log LOG --role auditor</code>).</p>
            <button type="submit">Sign in</button>
            </form>
            """)
    }
}
