import Foundation
import LedgerCore
import LedgerReportHTML

/// Who looked at a child's data (admins only): every recorded read of a subject's data through the
/// console, the HTTP API or the CLI, newest first, filtered to one subject when asked, with the
/// whole record exportable as CSV or JSON.
public enum ReadAuditPage {
    /// How many reads a page shows.
    public static let pageSize = 100

    /// The page of `records` (at most ``pageSize``) for the signed-in admin `key`.
    public static func render(log: String, subject: String?, records: [ReadRecord], key: APIKey) -> String {
        let base = "/console/logs/\(log)/reads"
        let filter = subject.map { "subject=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" }
        let rows = records.map { record -> HTML in
            let who: HTML = record.subject == ReadAccess.everySubject ? "every subject"
                : "<a href=\"/console/logs/\(log)/subjects/\(record.subject)\" title=\"\(record.subject)\"><code>\(ConsolePage.short(record.subject))</code></a>"
            return """
            <tr><td class="num">\(Int(record.seq))</td><td>\(ConsolePage.time(record.readAt, seconds: true))</td><td>\(record.access.channel.rawValue)</td>
            <td><code>\(ConsolePage.breakable(record.access.reader))</code></td><td>\(record.access.client)</td><td>\(record.what)</td><td>\(who)</td>
            <td class="detail">\(record.detail)</td></tr>
            """
        }
        let older: HTML = records.count == pageSize
            ? "<p><a href=\"\(base)?\(filter.map { $0 + "&" } ?? "")before=\(Int(records.last!.seq))\">Older reads</a></p>" : .empty
        let exports = ["csv", "json"].map { format -> HTML in
            "<li><a href=\"\(base)?\(filter.map { $0 + "&" } ?? "")format=\(format)\" download>All of them as \(format.uppercased())</a></li>"
        }
        let table: HTML = records.isEmpty ? "<p>No read is recorded\(subject == nil ? "" : " for this subject").</p>" : """
            <table class="data" id="reads">
            <caption>Reads of subjects' data, newest first\(subject.map { HTML(text: ", of \($0) (and reads of every subject)") } ?? .empty)</caption>
            <thead><tr><th scope="col">#</th><th scope="col">when (UTC)</th><th scope="col">through</th><th scope="col">who</th>
            <th scope="col">from</th><th scope="col">what</th><th scope="col">subject</th><th scope="col">details</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table>
            \(older)
            """
        return ConsolePage.document(title: "Who looked at subjects' data", key: key, log: log, wide: true, body: """
            <p>Every read of a subject's data (state, replay, explain, dossier, a register filtered to a subject) through
            this console, the HTTP API or the command line is recorded before it is answered, in a record kept like the
            events: append-only and hash-chained. "Who" is the API key's id, or <code>cli/</code> and the user for the command line.</p>
            <form method="get" action="\(base)" class="find">
            <label for="subject">Subject's pseudonym (empty for every subject)</label>
            <input id="subject" name="subject" value="\(subject ?? "")" spellcheck="false" autocomplete="off">
            <button type="submit">Show the reads</button>
            </form>
            \(table)
            <h2>Export</h2>
            <ul>\(exports)</ul>
            """)
    }

    /// The records as CSV (RFC 4180), with a header, oldest first.
    public static func csv(_ records: [ReadRecord]) -> String {
        CSVWriter.document(header: ["seq", "readAt", "channel", "reader", "client", "what", "subject", "detail", "chainHash"],
                           rows: records.reversed().map { r in
            [String(r.seq), r.readAt, r.access.channel.rawValue, r.access.reader, r.access.client, r.what, r.subject, r.detail, r.chainHash]
        })
    }

    /// The records as canonical JSON, oldest first.
    public static func json(log: String, subject: String?, _ records: [ReadRecord]) -> [UInt8] {
        CanonicalJSON.encode([
            "log": .string(log), "subject": subject.map(JSONValue.string) ?? .null,
            "reads": .array(records.reversed().map { r in
                ["seq": .number(Double(r.seq)), "readAt": .string(r.readAt), "channel": .string(r.access.channel.rawValue),
                 "reader": .string(r.access.reader), "client": .string(r.access.client), "what": .string(r.what),
                 "subject": .string(r.subject), "detail": .string(r.detail), "chainHash": .string(r.chainHash)]
            }),
        ]) + [0x0A]
    }
}
