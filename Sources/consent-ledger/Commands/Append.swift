import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// `consent-ledger append`.
struct Append: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Append events from NDJSON (one event per line) to a log.",
        discussion: """
            Every line is checked first (strict JSON, the envelope, the payload against the event catalogue \
            in docs/events.md, no birth date, birth year or exact age \
            anywhere, at most 64 KiB); a bad line is reported with its number and field and nothing of its \
            batch is stored. The whole input is one atomic batch unless --batch-size splits it; then each \
            batch commits on its own, in order.

            Retrying is always safe: each batch carries an idempotency key (by default the SHA-256 of its \
            events), and a batch the ledger has seen returns its original positions and writes nothing. \
            So after a failure, fix the input and run the same command again.

            Prints one JSON line per event to standard output: {"line":…,"position":…,"eventId":…,\
            "stream":…,"streamVersion":…}.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant) to append to; created on first append.")
    var log: String

    @Option(help: ArgumentHelp("The NDJSON file to read; - for standard input.", valueName: "path"))
    var file: String?

    @Argument(help: ArgumentHelp("- to read standard input (same as --file -).", valueName: "-"))
    var input: String?

    @Option(help: "Commit every N events as its own batch (default: the whole input is one batch).")
    var batchSize: Int?

    @Option(help: "The idempotency key (default: SHA-256 of each batch's events). With --batch-size, batch k uses KEY:k.")
    var idempotencyKey: String?

    func validate() throws {
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        if file != nil, input != nil { throw ValidationError("give either --file or -, not both") }
        if let input, input != "-" { throw ValidationError("unexpected argument \(input): use --file \(input) to read a file") }
    }

    func run() async throws {
        let path = file ?? input ?? "-"
        if path == "-", isatty(FileHandle.standardInput.fileDescriptor) == 1 {
            throw LedgerError(.invalidRequest, "no input: standard input is a terminal",
                              hint: "Give --file events.ndjson, or pipe NDJSON in: … | consent-ledger append --log \(log) -")
        }
        var reader = try NDJSONReader(path: path)
        let target = try database.target()
        let started = Date()
        let totals = try await LedgerDatabase.with(target, role: .application, progress: Console.note) { client in
            let store = EventStore(client: client)
            var output = StandardOutput()
            var batchNumber = 0
            var stored = 0
            var replayed = 0
            while true {
                // Read and check one batch.
                var events: [EventInput] = []
                var lines: [Int] = []
                while batchSize.map({ events.count < $0 }) ?? true, let (line, bytes) = try reader.next() {
                    do {
                        events.append(try EventInput(line: bytes))
                    } catch let error as LedgerError {
                        throw Self.explain(error.at(line: line), keptEvents: stored + replayed)
                    }
                    lines.append(line)
                }
                if events.isEmpty { break }
                batchNumber += 1
                let key = idempotencyKey.map { batchSize == nil ? $0 : "\($0):\(batchNumber)" }
                let result: AppendResult
                do {
                    result = try await store.append(log: log, events: events, idempotencyKey: key)
                } catch var error as LedgerError {
                    if let index = error.line, index >= 1, index <= lines.count { error.line = lines[index - 1] }
                    throw Self.explain(error, keptEvents: stored + replayed)
                }
                for (line, event) in zip(lines, result.events) {
                    output.line(#"{"line":\#(line),"position":\#(event.position),"eventId":"\#(event.eventId)","stream":"\#(event.stream)","streamVersion":\#(event.streamVersion)}"#)
                }
                output.flush()
                if result.idempotentReplay { replayed += result.events.count } else { stored += result.events.count }
                if batchSize != nil, batchNumber % 20 == 0 {
                    let rate = Double(stored + replayed) / max(Date().timeIntervalSince(started), 0.001)
                    Console.note("… \(stored + replayed) events through line \(lines.last ?? 0) (\(Int(rate)) events/s)")
                }
            }
            return (stored, replayed)
        }
        let (stored, replayed) = totals
        if stored + replayed == 0 {
            throw LedgerError(.invalidRequest, "the input holds no events", hint: "Write one JSON event per line.")
        }
        var summary = "appended \(stored) events to log \(log)"
        if replayed > 0 { summary += "; \(replayed) were already in the ledger (same idempotency key: nothing written twice)" }
        Console.note(summary)
    }
}

extension Append {
    /// Adds to a refused batch's error what was kept: nothing, or the earlier batches.
    static func explain(_ error: LedgerError, keptEvents: Int) -> LedgerError {
        var error = error
        let kept = keptEvents == 0
            ? "Nothing was stored."
            : "The \(keptEvents) events of earlier batches are stored; nothing of this batch was. "
                + "After fixing it, run the same command again: batches already stored are recognised by their idempotency keys and not stored twice."
        error.hint = (error.hint.map { $0 + "\n  " } ?? "") + kept
        return error
    }
}
