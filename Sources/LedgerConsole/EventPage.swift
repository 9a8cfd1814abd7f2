import Foundation
import LedgerCore
import LedgerReportHTML

/// One event by its position (or found by its event id): what it says, the record exactly as
/// hashed (personal data sealed), its subject's timeline, and its inclusion proof checked in the
/// browser. The evidence links of the findings lead here.
public enum EventPage {
    /// The page of `event` for the signed-in `key`; `checkpoint` is the newest signed one.
    public static func render(_ event: StoredEvent, checkpoint: StoredCheckpoint?, key: APIKey) -> String {
        let log = event.log
        let record = (try? JSONParser.parse(event.record)) ?? .null
        let body = record["event"] ?? .null
        let subject = body["subject"]?.stringValue
        let sentence = EventNarrative.sentence(type: event.type, payload: body["payload"] ?? .null, derived: body["derived"])
        let covered = checkpoint.map { Int64($0.treeSize) } ?? 0
        let timeline: HTML = subject.map {
            "<p>Subject: <a href=\"/console/logs/\(log)/subjects/\($0)#position-\(Int(event.position))\">\($0)</a> (its whole timeline)</p>"
        } ?? "<p>This event is about no subject (an app's or the operator's).</p>"
        return ConsolePage.document(title: "Position \(Int(event.position)) · \(SubjectPage.sentenceCase(ReportLabels.words(event.type)))", key: key, log: log, body: """
            <p class="sentence" id="sentence" data-said="\(sentence)">\(ConsoleWords.prose(sentence))</p>
            \(timeline)
            <dl class="facts">
            <dt>Recorded by the ledger (UTC)</dt><dd>\(ConsolePage.time(event.recordedAt, seconds: true))</dd>
            <dt>Occurred (device clock, UTC)</dt><dd>\(ConsolePage.time(body["occurredAt"]?.stringValue, seconds: true))</dd>
            <dt>Event type</dt><dd><code>\(event.type)</code></dd>
            <dt>Event id</dt><dd><code>\(event.eventId)</code></dd>
            <dt>Stream</dt><dd><code>\(event.stream)</code> version \(Int(event.streamVersion))</dd>
            <dt>Leaf hash</dt><dd><code>\(LedgerHash.hex(event.leafHash))</code></dd>
            </dl>
            <details class="record"><summary>The record exactly as hashed (personal data sealed)</summary>
            <pre class="record-bytes">\(String(decoding: event.record, as: UTF8.self))</pre>
            </details>
            \(ConsolePage.logKeyField(log: log, checkpoint: checkpoint))
            \(ConsolePage.proofChecker(position: event.position, covered: covered))
            """)
    }
}
