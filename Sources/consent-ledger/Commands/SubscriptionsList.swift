import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions list [--log L] [--format json]`.
struct SubscriptionsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List webhook subscriptions: id, log, state, delivered through, failures, URL, what is sent (never secrets).")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Only this log's subscriptions.")
    var log: String?

    @Option(help: "text (for people) or json (one object per line).")
    var format: OutputFormat = .text

    func run() async throws {
        let found = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.subscriptions(log: log)
        }
        if found.isEmpty { Console.note("no subscriptions yet: consent-ledger subscriptions create --log L --url U --kind violation") }
        for subscription in found {
            switch format {
            case .json: try Console.out(String(decoding: try CanonicalJSON.encode(encodable: subscription), as: UTF8.self))
            case .text:
                let sends = subscription.eventTypes + subscription.findingKinds.map { $0 + "s" } + subscription.rules.map { "rule " + $0 }
                let failing = subscription.failures == 0 ? "ok"
                    : "\(subscription.failures) failures, next \(subscription.nextAttemptAt ?? "never")"
                try Console.out([subscription.id, subscription.log, subscription.state.rawValue, "through \(subscription.deliveredThrough)",
                                 failing, subscription.url, sends.joined(separator: ","), subscription.label].joined(separator: "\t"))
            }
        }
    }
}
