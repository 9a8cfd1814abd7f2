import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions deliveries ID [--limit N] [--format json]`.
struct SubscriptionsDeliveries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "A subscription's delivery log, newest first: item, attempt, when, status or error, latency.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The subscription's id (sub_...).")
    var id: String

    @Option(help: "The most attempts shown.")
    var limit = 100

    @Option(help: "text (for people) or json (one object per line).")
    var format: OutputFormat = .text

    func validate() throws {
        guard Subscription.isID(id) else { throw ValidationError("\(id) is not a subscription id (sub_ and 12 characters of a-z, 0-9)") }
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000, not \(limit)") }
    }

    func run() async throws {
        let attempts = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.deliveries(id, limit: limit)
        }
        if attempts.isEmpty { Console.note("no deliveries yet for \(id)") }
        for attempt in attempts {
            switch format {
            case .json: try Console.out(String(decoding: try CanonicalJSON.encode(encodable: attempt), as: UTF8.self))
            case .text:
                try Console.out([attempt.attemptedAt, attempt.item, "attempt \(attempt.attempt)",
                                 attempt.status.map { "HTTP \($0)" } ?? (attempt.error ?? "no answer"),
                                 String(format: "%.1f ms", attempt.latencyMs)].joined(separator: "\t"))
            }
        }
    }
}
