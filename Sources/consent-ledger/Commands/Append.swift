import ArgumentParser
import Foundation
import LedgerApplication
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

            Prints a summary on standard error (events appended, positions, events already in the ledger) \
            and, on a terminal, progress with its rate and the time left. With --verbose it also prints one \
            JSON line per event to standard output: {"line":…,"position":…,"eventId":…,"stream":…,\
            "streamVersion":…}.

            EXAMPLES:
              consent-ledger append --log acme --file events.ndjson
              consent-ledger append --log acme --file big.ndjson --batch-size 10000
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant) to append to; created on first append.")
    var log: String

    @Option(help: ArgumentHelp("The NDJSON file to read; - for standard input.", valueName: "path"))
    var file: String?

    @Argument(help: ArgumentHelp("- to read standard input (same as --file -).", valueName: "-"))
    var input: String?

    @Option(help: "Commit every N events as its own batch (default: the whole input is one batch; with --bulk, 10,000).")
    var batchSize: Int?

    @Option(help: "The idempotency key (default: SHA-256 of each batch's events). With --batch-size, batch k uses KEY:k.")
    var idempotencyKey: String?

    @Flag(help: ArgumentHelp(
        "Load through COPY as the database owner: for backfills of many events (decision 0042).",
        discussion: "Every event is checked here against the same catalogue, personal data is sealed, and the records are built "
            + "and hashed here; the database's insert trigger checks every position, hash and column again. Commits every "
            + "--batch-size events (default 10,000); after a crash, run the same command again: stored batches are "
            + "recognised by their idempotency keys and skipped."))
    var bulk = false

    @Flag(help: "Print one JSON line per event appended (line, position, eventId, stream, streamVersion) on standard output.")
    var verbose = false

    /// Events per batch in effect: --batch-size, else 10,000 with --bulk, else nil (the whole input).
    var effectiveBatchSize: Int? { batchSize ?? (bulk ? 10_000 : nil) }

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
        let batches = BatchReader(reader: try NDJSONReader(path: path), batchSize: effectiveBatchSize)
        let target = try database.target()
        let bar = ProgressBar(label: "append to \(log)", unit: "lines")
        let totals = try await Ledger.with(target, progress: Console.note) { ledger in
            var output = StandardOutput()
            var batchNumber = 0
            var totals = AppendTotals()
            // The next batch is read and checked while the one before is stored.
            var next = Task { try await batches.next(progress: bar) }
            while true {
                let batch: BatchReader.Batch
                do {
                    guard let read = try await next.value else { break }
                    batch = read
                } catch let error as LedgerError {
                    throw Self.explain(error, keptEvents: totals.kept)
                }
                next = Task { try await batches.next(progress: bar) }
                if effectiveBatchSize == nil, batch.events.count >= 5_000 {
                    bar.finish()
                    Console.note("checked \(ProgressBar.grouped(Int64(batch.events.count))) events; storing them as one atomic batch "
                        + "(all or nothing; --batch-size N commits every N events instead)")
                }
                batchNumber += 1
                let key = idempotencyKey.map { effectiveBatchSize == nil ? $0 : "\($0):\(batchNumber)" }
                let result: AppendResult
                do {
                    result = bulk ? try await ledger.bulkAppend(log: log, events: batch.events, idempotencyKey: key)
                                  : try await ledger.append(log: log, events: batch.events, idempotencyKey: key)
                } catch var error as LedgerError {
                    next.cancel()
                    if let index = error.line, index >= 1, index <= batch.lines.count { error.line = batch.lines[index - 1] }
                    throw Self.explain(error, keptEvents: totals.kept)
                }
                if verbose {
                    for (line, event) in zip(batch.lines, result.events) {
                        try output.line(#"{"line":\#(line),"position":\#(event.position),"eventId":"\#(event.eventId)","stream":"\#(event.stream)","streamVersion":\#(event.streamVersion)}"#)
                    }
                    try output.flush()
                }
                totals.add(result)
                bar.update(done: Int64(batch.lines.last ?? 0), total: batches.totalLines)
            }
            return totals
        }
        bar.finish()
        guard totals.kept > 0 else {
            throw LedgerError(.invalidRequest, "the input holds no events", hint: "Write one JSON event per line.")
        }
        Console.note(totals.summary(log: log))
    }
}

/// What an `append` run did, for its summary line.
struct AppendTotals {
    /// Events written by this run.
    var stored = 0
    /// Events of batches the ledger had already (same idempotency key): nothing written twice.
    var replayed = 0
    /// The lowest and highest positions of the events written or found.
    var positions: ClosedRange<Int64>?

    /// Events the ledger now holds from this input.
    var kept: Int { stored + replayed }

    mutating func add(_ result: AppendResult) {
        if result.idempotentReplay { replayed += result.events.count } else { stored += result.events.count }
        guard let first = result.events.map(\.position).min(), let last = result.events.map(\.position).max() else { return }
        positions = positions.map { min($0.lowerBound, first)...max($0.upperBound, last) } ?? first...last
    }

    /// `appended 29,000 events to log acme (positions 1 to 29,000)`, and what was already there.
    func summary(log: String) -> String {
        var text = "appended \(ProgressBar.grouped(Int64(stored))) event\(stored == 1 ? "" : "s") to log \(log)"
        if let positions, stored > 0 && replayed == 0 {
            text += positions.lowerBound == positions.upperBound ? " (position \(positions.lowerBound))"
                : " (positions \(positions.lowerBound) to \(positions.upperBound))"
        }
        if replayed > 0 {
            text += "; \(ProgressBar.grouped(Int64(replayed))) were already in the ledger (same idempotency key: nothing written twice)"
        }
        return text
    }
}

extension Append {
    /// Adds to a refused batch's error what was kept: nothing, or the earlier batches. A batch whose
    /// commit lost its connection (`outcome-unknown`) was not refused: whether it was stored is
    /// unknown, and that is what is said, never "nothing was stored".
    static func explain(_ error: LedgerError, keptEvents: Int) -> LedgerError {
        var error = error
        if error.code == .outcomeUnknown {
            let earlier = keptEvents == 0 ? "" : "The \(keptEvents) events of earlier batches are stored. "
            error.message = "the outcome is unknown: the batch may or may not have been stored "
                + "(the connection to the database was lost while its commit was in flight)"
            error.hint = earlier + "Running the same command again is safe: a batch already stored is recognised by its "
                + "idempotency key and not stored twice, and one that was not is stored then."
            return error
        }
        let kept = keptEvents == 0
            ? "Nothing was stored."
            : "The \(keptEvents) events of earlier batches are stored; nothing of this batch was. "
                + "After fixing it, run the same command again: batches already stored are recognised by their idempotency keys and not stored twice."
        error.hint = (error.hint.map { $0 + "\n  " } ?? "") + kept
        return error
    }
}
