import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger events`.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a log's events as NDJSON, in position order.",
        discussion: """
            Each line is the record exactly as the ledger hashed it ({"event":…,"log":…,"position":…,\
            "recordedAt":…,"streamVersion":…}) with two members added at the end: "chainHash" and \
            "leafHash" (hex). Remove those two and the remaining bytes hash to leafHash as \
            SHA-256(0x00 || bytes). Streams in constant memory, however long the log.

            With --reveal, personal-data fields are shown opened with their subject's key, or as \
            {"$erased":true} once the subject was erased; such lines carry "revealed":true instead of \
            the hashes, since they are no longer the bytes that were hashed. Needs administrator rights. \
            Each subject whose data --reveal opens, or whose events --stream picks out, is entered in the record of \
            reads (who looked at a child's data) before its first line is printed.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log to read.")
    var log: String

    @Option(help: "Only events after this position.")
    var after: Int64 = 0

    @Option(help: "At most this many events.")
    var limit: Int64?

    @Option(help: "Only this stream's events (in stream-version order).")
    var stream: String?

    @Flag(help: "Open sealed personal-data fields (or show them as erased).")
    var reveal = false

    func validate() throws {
        if after < 0 { throw ValidationError("--after must be 0 or more") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            var output = StandardOutput()
            // A subject's data opened, or a subject's history picked out, is a read of that subject's
            // data: recorded before the subject's first line is printed (a read not recorded is not printed).
            var recorded: Set<String> = []
            let what = reveal ? "events --reveal" : "events --stream"
            try await ledger.events(log: log, after: after, limit: limit, stream: stream, reveal: reveal) { event, keys in
                let parsed = reveal || stream != nil ? try LedgerRecord(parsing: event.record) : nil
                if let subject = parsed?.event["subject"]?.stringValue, !recorded.contains(subject) {
                    try output.flush()
                    try await ReadRecording.record(ledger, log: log, what: what, subject: subject,
                                                   detail: "after position \(after)" + (stream.map { ", stream \($0)" } ?? ""))
                    recorded.insert(subject)
                }
                if reveal, let parsed {
                    try output.write(try Self.revealedLine(parsed, keys: keys))
                } else {
                    try output.write(event.ndjsonLine)
                }
            }
            try output.flush()
        }
    }

    /// The record with its event's personal fields opened (or marked erased), and `"revealed":true`.
    static func revealedLine(_ parsed: LedgerRecord, keys: [String: PersonalDataView.KeyState]) throws -> [UInt8] {
        var record = parsed
        let subject = record.event["subject"]?.stringValue ?? ""
        record.event = try PersonalDataView.reveal(event: record.event, log: record.log, key: keys[subject] ?? .unknown)
        var bytes = record.canonicalBytes
        bytes.removeLast()
        bytes += Array(#","revealed":true}"#.utf8)
        bytes.append(0x0A)
        return bytes
    }
}
