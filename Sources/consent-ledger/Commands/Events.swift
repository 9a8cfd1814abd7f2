import ArgumentParser
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

    func validate() throws {
        if after < 0 { throw ValidationError("--after must be 0 or more") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await LedgerDatabase.with(try database.target(), role: .auditor, progress: Console.note) { client in
            let store = EventStore(client: client)
            _ = try await store.requireHead(log: log)
            var output = StandardOutput()
            try await store.read(log: log, after: after, limit: limit, stream: stream) { event in
                output.write(Self.line(for: event))
            }
            output.flush()
        }
    }

    /// The record bytes with `,"chainHash":"…","leafHash":"…"}` in place of the final `}`.
    static func line(for event: StoredEvent) -> [UInt8] {
        var bytes = event.record
        if bytes.last == UInt8(ascii: "}") { bytes.removeLast() }
        bytes += Array(#","chainHash":"\#(LedgerHash.hex(event.chainHash))","leafHash":"\#(LedgerHash.hex(event.leafHash))"}"#.utf8)
        bytes.append(0x0A)
        return bytes
    }
}
