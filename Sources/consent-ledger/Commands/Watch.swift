import ArgumentParser
import LedgerApplication
import LedgerCore

extension LedgerRule.Kind: ExpressibleByArgument {}

/// `consent-ledger watch`.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a log's findings (rule violations and anomalies) as the ledger finds them.",
        discussion: """
            Prints every finding after --after (all of them by default), in log order, then each new one \
            as the anomalies projection folds the event it is found on, until Ctrl-C. One line per \
            finding: its id, violation or anomaly, the rule, the position, the subject and what was found \
            (--format json: one object per line). The id is the cursor: start again with --after <id> \
            and nothing is missed or shown twice. Reads the live projection, which `serve` or \
            `project run --follow` keeps up: without one of them running, no new finding appears.

            EXAMPLES:
              consent-ledger watch --log acme
              consent-ledger watch --log acme --kind violation --after 1200.access-after-denial
              consent-ledger watch --log acme --format json --until-caught-up
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: ArgumentHelp("Only findings after this one: an id as a line shows it (12.access-after-denial), or a position.",
                               valueName: "id"))
    var after: String = "0"

    @Option(help: ArgumentHelp("Only violations, or only anomalies.", valueName: "violation|anomaly"))
    var kind: LedgerRule.Kind?

    @Option(help: "text (for people) or json (one object per line).")
    var format: OutputFormat = .text

    @Flag(help: "Print the findings there are now and stop, instead of waiting for new ones.")
    var untilCaughtUp = false

    func validate() throws {
        guard FindingsFeed.Cursor(after) != nil else { throw ValidationError("--after: \(FindingsFeed.Cursor.expected), not \(after)") }
    }

    func run() async throws {
        let start = FindingsFeed.Cursor(after) ?? .start
        let (log, kind, format) = (self.log, self.kind, self.format)
        try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            let first = try await ledger.findings(log: log, after: start, kind: kind, limit: 1)
            // Findings name subjects: the watch is entered in the record of reads before anything is printed.
            try await ReadRecording.record(ledger, log: log, what: "findings", subject: ReadAccess.everySubject,
                                           detail: "after \(start)" + (kind.map { ", \($0.rawValue)s only" } ?? ""))
            if first.judgedThrough < first.head {
                Console.note("note: the anomalies projection has judged position \(first.judgedThrough) of \(first.head); "
                    + "findings of later events appear as `serve` or `project run --follow` folds them")
            }
            if untilCaughtUp {
                var cursor = start
                while true {
                    let page = try await ledger.findings(log: log, after: cursor, kind: kind)
                    try Self.print(page.items, as: format)
                    guard let last = page.items.last, page.items.count == FindingsFeed.maxLimit else { break }
                    cursor = last.cursor
                }
                return
            }
            Console.note("watching \(log) for findings after \(start); Ctrl-C stops, and --after <the last id> goes on from there")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await ledger.followFolds() }
                group.addTask {
                    try await ledger.followFindings(log: log, after: start, kind: kind) { items in try Self.print(items, as: format) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Writes `items`, one line each, and flushes: a watcher sees each finding when it comes.
    static func print(_ items: [FindingsFeed.Item], as format: OutputFormat) throws {
        var out = StandardOutput()
        for item in items {
            switch format {
            case .json: try out.line(String(decoding: try CanonicalJSON.encode(encodable: item), as: UTF8.self))
            case .text: try out.line(line(item))
            }
        }
        try out.flush()
    }

    /// `12.access-after-denial  violation  #12  p_7f3a9c  the feature was opened after the parent denied it`.
    static func line(_ item: FindingsFeed.Item) -> String {
        [item.id, item.kind, "#\(item.position)", item.subject ?? "-", item.detail].joined(separator: "  ")
    }
}
