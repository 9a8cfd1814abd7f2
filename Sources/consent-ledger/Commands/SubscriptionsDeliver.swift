import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions deliver`: the deliverer on its own, where `serve` does not deliver.
struct SubscriptionsDeliver: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Deliver every active subscription until stopped (serve does this itself unless --no-deliveries).",
        discussion: """
            For a server of your own where `serve` runs as the application role: run this as the administrator \
            beside `project run --follow`. Two deliverers never send one subscription at once (an advisory lock).
            """)

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            let http = WebhookSender.makeClient()
            Console.note("delivering webhook subscriptions; Ctrl-C stops")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await ledger.followFolds() }
                group.addTask { await ledger.deliverWebhooks(sender: WebhookSender(http: http), note: Console.note) }
                await group.next()
                group.cancelAll()
            }
            try await http.shutdown()
        }
    }
}
