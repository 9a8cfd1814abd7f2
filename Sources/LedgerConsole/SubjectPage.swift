import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportHTML

/// A subject's page: the state as of a position or a time (either clock), and the timeline of
/// every event up to then with its plain sentence and the state after it; each event's inclusion
/// proof can be checked in the browser (console.js: SHA-256 and Ed25519 through WebCrypto, against
/// the checkpoint and the log's public key), independently of the server's code.
public enum SubjectPage {
    /// What the page shows.
    public struct Content: Sendable {
        /// The subject's history as of the chosen point.
        public var history: SubjectReplay.History
        /// The as-of text the user gave (empty: the head).
        public var asOfText: String
        /// The clock a time refers to.
        public var clock: AsOf.Clock
        /// The newest signed checkpoint (nil: none yet, nothing can be proved).
        public var checkpoint: StoredCheckpoint?

        /// The content from its parts.
        public init(history: SubjectReplay.History, asOfText: String, clock: AsOf.Clock, checkpoint: StoredCheckpoint?) {
            self.history = history
            self.asOfText = asOfText
            self.clock = clock
            self.checkpoint = checkpoint
        }
    }

    /// The page for the signed-in `key`.
    public static func render(_ content: Content, key: APIKey) -> String {
        let history = content.history
        let log = history.log
        let subject = history.subject
        let base = "/console/logs/\(log)/subjects/\(subject)"
        let covered = content.checkpoint.map { Int64($0.treeSize) } ?? 0
        let steps = history.steps.map { step -> HTML in
            let event = step.event
            let proof = ConsolePage.proofChecker(position: event.position, covered: covered)
            return """
            <li class="event" id="position-\(Int(event.position))" data-position="\(Int(event.position))">
            <h3><span class="position">Position \(Int(event.position))</span> · \(event.type)</h3>
            <p class="sentence">\(event.sentence)</p>
            <dl class="facts">
            <dt>Recorded by the ledger</dt><dd><time>\(event.recordedAt)</time></dd>
            <dt>Occurred (device clock)</dt><dd><time>\(event.occurredAt)</time></dd>
            <dt>By</dt><dd>\(event.actor)\(event.app.map { HTML(text: " in \($0)") } ?? .empty)</dd>
            <dt>Event id</dt><dd><code>\(event.eventId)</code></dd>
            </dl>
            <details class="state-after"><summary>State after this event\(step.changedState ? " (changed)" : " (unchanged)")</summary>
            \(ConsolePage.value(step.state))
            </details>
            \(proof)
            </li>
            """
        }
        let current = history.steps.last.map { ConsolePage.value($0.state) } ?? "<p>No event about this subject up to this point.</p>"
        // "Why was this feature open?": the features the state names, explained as of the same point.
        let features = Set((history.steps.last?.state["features"]?.arrayValue ?? []).compactMap { $0["feature"]?.stringValue }).sorted()
        let explain: HTML = features.isEmpty ? .empty : """
            <form method="get" action="\(base)/explain" class="filters" id="explain-form">
            <div><label for="feature">Why was this feature open or closed?</label>
            <select id="feature" name="feature">\(features.map { f -> HTML in "<option value=\"\(f)\">\(f)</option>" })</select></div>
            <input type="hidden" name="asOf" value="\(content.asOfText)"><input type="hidden" name="clock" value="\(content.clock.rawValue)">
            <div><button type="submit">Explain</button></div>
            </form>
            """
        let asOfSaid = content.asOfText.isEmpty ? "the head of the log"
            : content.asOfText.allSatisfy(\.isNumber) ? "position \(content.asOfText)"
            : "\(content.asOfText) (\(content.clock == .recorded ? "ledger clock" : "device clock"))"
        let downloads = ["json", "csv", "html"].map { format -> HTML in
            "<li><a href=\"\(base)/dossier?format=\(format)&amp;asOf=\(Int(history.throughPosition))\" download>Dossier as \(format.uppercased())</a></li>"
        }
        let body: HTML = """
            <section aria-labelledby="as-of-title">
            <h2 id="as-of-title">As of</h2>
            <form method="get" action="\(base)" class="as-of">
            <label for="asOf">Position or time (RFC 3339); empty for now</label>
            <input id="asOf" name="asOf" value="\(content.asOfText)" spellcheck="false" autocomplete="off" aria-describedby="asOf-help">
            <label for="clock">Clock of a time</label>
            <select id="clock" name="clock">
            <option value="recorded"\(content.clock == .recorded ? " selected" : "")>ledger (recorded)</option>
            <option value="occurred"\(content.clock == .occurred ? " selected" : "")>device (occurred)</option>
            </select>
            <button type="submit">Show</button>
            <p id="asOf-help" class="help">For example 1200, or 2026-09-10T12:00:00Z.</p>
            </form>
            <p>Showing <span id="as-of-said">\(asOfSaid)</span>: through position <strong id="through-position">\(Int(history.throughPosition))</strong>,
            <strong id="event-count">\(history.steps.count)</strong> event\(history.steps.count == 1 ? "" : "s") about this subject.</p>
            </section>
            <section aria-labelledby="state-title">
            <h2 id="state-title">State then</h2>
            <div id="current-state">\(current)</div>
            \(explain)
            </section>
            <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            \(ConsolePage.logKeyField(log: log, checkpoint: content.checkpoint))
            <ol class="timeline" id="timeline">\(steps)</ol>
            </section>
            <section aria-labelledby="downloads-title">
            <h2 id="downloads-title">Downloads</h2>
            <p>The subject dossier as of position \(Int(history.throughPosition)), sealed (its SHA-256 is in the <code>Report-Seal</code> header and in the file).</p>
            <ul>\(downloads)</ul>
            </section>
            """
        return ConsolePage.document(title: "Subject \(subject)", key: key, log: log, body: body)
    }
}
