import Foundation
import LedgerCore
import LedgerReportHTML

/// A subject's page: the state as of a position or a time (either clock), and the timeline of
/// every event up to then with its plain sentence and the state after it; each event's inclusion
/// proof can be checked in the browser (console.js: SHA-256 and Ed25519 through WebCrypto, against
/// the checkpoint and the log's public key), independently of the server's code.
public enum SubjectPage {
    /// What the page shows.
    public struct Content: Sendable {
        /// The log.
        public var log: String
        /// The subject.
        public var subject: String
        /// The last position the page covers.
        public var throughPosition: Int64
        /// The subject's events up to then, in order.
        public var events: [ReplayedEvent]
        /// The subject's state then (nil: no event yet).
        public var state: JSONValue?
        /// The as-of text the user gave (empty: the head).
        public var asOfText: String
        /// The clock a time refers to.
        public var clock: AsOf.Clock
        /// The newest signed checkpoint (nil: none yet, nothing can be proved).
        public var checkpoint: StoredCheckpoint?
        /// The findings of the ledger's rules about the subject, up to ``throughPosition``.
        public var findings: [AnomalyFindings.Finding]

        /// The content from its parts.
        public init(log: String, subject: String, throughPosition: Int64, events: [ReplayedEvent], state: JSONValue?, asOfText: String,
                    clock: AsOf.Clock, checkpoint: StoredCheckpoint?, findings: [AnomalyFindings.Finding] = []) {
            self.log = log
            self.subject = subject
            self.throughPosition = throughPosition
            self.events = events
            self.state = state
            self.asOfText = asOfText
            self.clock = clock
            self.checkpoint = checkpoint
            self.findings = findings
        }
    }

    /// The page for the signed-in `key`.
    public static func render(_ content: Content, key: APIKey) -> String {
        let log = content.log
        let subject = content.subject
        let base = "/console/logs/\(log)/subjects/\(subject)"
        let covered = content.checkpoint.map { Int64($0.treeSize) } ?? 0
        let steps = content.events.map { event -> HTML in
            let proof = ConsolePage.proofChecker(position: event.position, covered: covered)
            return """
            <li class="event" id="position-\(Int(event.position))" data-position="\(Int(event.position))">
            <h3><span class="position">Position \(Int(event.position))</span> · <span title="\(event.type)">\(Self.sentenceCase(ReportLabels.words(event.type)))</span></h3>
            <p class="sentence" data-said="\(event.sentence)">\(ConsoleWords.prose(event.sentence))</p>
            <dl class="facts">
            <dt>Recorded by the ledger (UTC)</dt><dd>\(ConsolePage.time(event.recordedAt, seconds: true))</dd>
            <dt>Occurred (device clock, UTC)</dt><dd>\(ConsolePage.time(event.occurredAt, seconds: true))</dd>
            <dt>By</dt><dd>\(event.actor)\(event.app.map { HTML(text: " in \($0)") } ?? .empty)</dd>
            <dt>Event id</dt><dd><code>\(event.eventId)</code></dd>
            </dl>
            <p><a class="state-after" href="\(base)?asOf=\(Int(event.position))">The subject's state after this event</a></p>
            \(proof)
            </li>
            """
        }
        let context = SubjectStateSections.Context(log: log, subject: subject, asOfText: content.asOfText, clock: content.clock)
        let current = content.events.isEmpty ? "<p>No event about this subject up to this point.</p>"
            : SubjectStateSections.render(content.state ?? .null, findings: content.findings, context: context)
        // "Why was this feature open?": the features the state names, explained as of the same point.
        let features = Set((content.state?["features"]?.arrayValue ?? []).compactMap { $0["feature"]?.stringValue }).sorted()
        let explain: HTML = features.isEmpty ? .empty : """
            <form method="get" action="\(base)/explain" class="filters" id="explain-form">
            <div><label for="feature">Why was this feature open or closed?</label>
            <select id="feature" name="feature">\(features.map { f -> HTML in "<option value=\"\(f)\">\(ReportLabels.words(f))</option>" })</select></div>
            <input type="hidden" name="asOf" value="\(content.asOfText)"><input type="hidden" name="clock" value="\(content.clock.rawValue)">
            <div><button type="submit">Explain</button></div>
            </form>
            """
        let asOfSaid = content.asOfText.isEmpty ? "the head of the log"
            : content.asOfText.allSatisfy(\.isNumber) ? "position \(content.asOfText)"
            : "\(content.asOfText) (\(content.clock == .recorded ? "ledger clock" : "device clock"))"
        let downloads = ["json", "csv", "html"].map { format -> HTML in
            "<li><a href=\"\(base)/dossier?format=\(format)&amp;asOf=\(Int(content.throughPosition))\" download>Dossier as \(format.uppercased())</a></li>"
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
            <p>Showing <span id="as-of-said">\(asOfSaid)</span>: through position <strong id="through-position">\(Int(content.throughPosition))</strong>,
            <strong id="event-count">\(content.events.count)</strong> event\(content.events.count == 1 ? "" : "s") about this subject.</p>
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
            <p>The subject dossier as of position \(Int(content.throughPosition)), sealed (its SHA-256 is in the <code>Report-Seal</code> header and in the file).</p>
            <ul>\(downloads)</ul>
            </section>
            """
        return ConsolePage.document(title: "Subject \(subject)", key: key, log: log, body: body)
    }

    /// `access gate applied` as "Access gate applied".
    static func sentenceCase(_ words: String) -> String { words.prefix(1).uppercased() + words.dropFirst() }
}
