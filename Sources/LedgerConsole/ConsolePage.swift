import LedgerCore
import LedgerReportHTML

/// The frame of every console page: a skip link, the header (the log and who is signed in, with
/// sign-out), the main content, and the one stylesheet and script, both served by the console
/// itself (`/console/assets/…`): no inline script or style, so the Content-Security-Policy can
/// forbid both (docs/console.md).
public enum ConsolePage {
    /// The whole document for `title`, with `body` as the main content. `key` is the signed-in key
    /// (nil on the sign-in page); `log` the log the page is about; `wide` lets the content use the
    /// window's whole width (a table of many columns).
    public static func document(title: String, key: APIKey?, log: String? = nil, wide: Bool = false, body: HTML) -> String {
        let navigation: HTML
        if let key {
            let log = log ?? key.log
            navigation = """
            <nav aria-label="Console">
            <ul>
            <li><a href="/console/logs/\(log)">Overview of \(log)</a></li>
            <li><a href="/console/logs/\(log)#find-subject">Find a subject</a></li>
            <li><a href="/console/logs/\(log)/register">Consent register</a></li>
            <li><a href="/console/logs/\(log)/reports">Regulator report</a></li>
            <li><a href="/console/logs/\(log)/findings">Violations and anomalies</a></li>
            \(key.role == .admin ? HTML("<li><a href=\"/console/logs/\(log)/reads\">Who looked</a></li>") : .empty)
            </ul>
            <form method="post" action="/console/sign-out" class="sign-out">
            <span>Signed in with key \(key.keyID) (\(key.role.rawValue))</span>
            <button type="submit">Sign out</button>
            </form>
            </nav>
            """
        } else {
            navigation = .empty
        }
        let page: HTML = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · ConsentLedger</title>
        <link rel="stylesheet" href="\(ConsoleAssets.stylesheetPath)">
        <script src="\(ConsoleAssets.scriptPath)" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header>
        <p class="brand">ConsentLedger console</p>
        \(navigation)
        </header>
        <main id="main" tabindex="-1"\(wide ? HTML(" class=\"wide\"") : .empty)>
        <h1>\(title)</h1>
        \(body)
        </main>
        </body>
        </html>

        """
        return page.markup
    }

    /// The in-browser proof checker of the event at `position` (console.js), or a sentence saying
    /// that no signed checkpoint covers it yet (`covered` is the newest checkpoint's size).
    public static func proofChecker(position: Int64, covered: Int64) -> HTML {
        guard position <= covered else { return "<p class=\"proof-none\">Not yet covered by a signed checkpoint: no proof yet.</p>" }
        let id = Int(position)
        return """
            <div class="proof" data-position="\(id)">
            <button type="button" class="check-proof" aria-describedby="proof-\(id)-result">Check its inclusion proof in this browser</button>
            <output id="proof-\(id)-result" class="proof-result" aria-live="polite"></output>
            <details class="proof-bytes"><summary>The proof's bytes (edit and check again)</summary>
            <label for="proof-\(id)-bundle">Proof bundle (JSON)</label>
            <textarea id="proof-\(id)-bundle" class="bundle" rows="8" spellcheck="false"></textarea>
            <button type="button" class="check-again">Check these bytes</button>
            </details>
            </div>
            """
    }

    /// The field holding the log's public key that console.js checks proofs against, filled in
    /// from `checkpoint` (empty when none is signed).
    public static func logKeyField(log: String, checkpoint: StoredCheckpoint?) -> HTML {
        let key = checkpoint.map { HTML(text: $0.verifierKey) } ?? .empty
        return """
            <p class="key-line"><label for="log-key">Log public key the proofs are checked against</label>
            <input id="log-key" value="\(key)" spellcheck="false" autocomplete="off" data-log="\(log)" aria-describedby="log-key-help">
            <span id="log-key-help" class="help">Filled in from the server. Replace it with the key you were given to check independently of this server.</span></p>
            """
    }

    /// A time as "2026-09-10 12:00" (with `seconds`, "2026-09-10 12:00:05"), on one line, the exact
    /// RFC 3339 value in `datetime` and in the title; a dash when there is none. A table of many
    /// columns then fits a 1366-pixel screen without breaking a time in two.
    public static func time(_ value: String?, seconds: Bool = false) -> HTML {
        guard let value else { return "—" }
        let scalars = Array(value.unicodeScalars)
        let end = seconds ? 19 : 16
        guard scalars.count >= end else { return "<time class=\"nowrap\">\(value)</time>" }
        let short = String(String.UnicodeScalarView(scalars[0..<10])) + " " + String(String.UnicodeScalarView(scalars[11..<end]))
        return "<time class=\"nowrap\" datetime=\"\(value)\" title=\"\(value) (UTC)\">\(short)</time>"
    }

    /// A pseudonym cut to its first characters, enough to tell subjects apart on a page (the
    /// whole of it goes in the title and the link).
    public static func short(_ pseudonym: String) -> String {
        pseudonym.count <= shortLength + 1 ? pseudonym : String(pseudonym.prefix(shortLength)) + "…"
    }

    /// How many characters of a pseudonym a table shows.
    public static let shortLength = 12

    /// An identifier (a bundle id, a question id) that may break after its `.`, `-`, `_` and `:`
    /// in a narrow column, never inside a word.
    public static func breakable(_ id: String) -> HTML {
        var html: HTML = .empty
        for character in id {
            html += HTML(text: String(character))
            if ".-_:".contains(character) { html += "<wbr>" }
        }
        return html
    }

    /// A `<dl>` of a JSON value: objects as nested term and description lists, arrays as lists,
    /// scalars as text (the state after an event, read aloud as well as seen).
    public static func value(_ value: JSONValue) -> HTML {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "<span class=\"empty\">(none)</span>" }
            let items = members.keys.sorted().map { key -> HTML in "<dt>\(key)</dt><dd>\(Self.value(members[key]!))</dd>" }
            return "<dl class=\"json\">\(items)</dl>"
        case .array(let elements):
            guard !elements.isEmpty else { return "<span class=\"empty\">(none)</span>" }
            return "<ul class=\"json\">\(elements.map { element -> HTML in "<li>\(Self.value(element))</li>" })</ul>"
        case .string(let text): return HTML(text: text)
        case .bool(let flag): return flag ? "yes" : "no"
        case .null: return "<span class=\"empty\">(none)</span>"
        case .number: return HTML(text: String(decoding: CanonicalJSON.encode(value), as: UTF8.self))
        }
    }
}
