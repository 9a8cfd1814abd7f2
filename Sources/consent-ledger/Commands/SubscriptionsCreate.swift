import ArgumentParser
import LedgerApplication
import LedgerCore

/// `consent-ledger subscriptions create --log L --url U [--event-type T]... [--kind K]... [--rule R]...`.
struct SubscriptionsCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a webhook subscription; prints its id and its signing secret, once.",
        discussion: """
            EXAMPLES:
              consent-ledger subscriptions create --log acme --url https://backend.example/hooks/ledger --event-type ConsentRescinded --kind violation
              consent-ledger subscriptions create --log acme --url https://backend.example/hooks/audit --rule access-after-denial --label audit-team
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant) whose items are sent.")
    var log: String

    @Option(help: "Where items are POSTed (http or https).")
    var url: String

    @Option(name: .customLong("event-type"), help: "Send every event of this type (repeatable): ConsentRescinded, AccessGateApplied, ...")
    var eventTypes: [String] = []

    @Option(help: ArgumentHelp("Send every finding of this kind (repeatable).", valueName: "violation|anomaly"))
    var kind: [LedgerRule.Kind] = []

    @Option(help: "Send findings of this rule only (repeatable; docs/rules.md lists them).")
    var rule: [String] = []

    @Option(help: "Who it is for, for the list.")
    var label = ""

    func validate() throws {
        do {
            _ = try SubscriptionRequest(log: log, url: url, eventTypes: eventTypes, findingKinds: kind, rules: rule, label: label).validated()
        } catch let error as LedgerError {
            throw ValidationError(error.message + (error.hint.map { " " + $0 } ?? ""))
        }
    }

    func run() async throws {
        let target = try database.target()
        let request = SubscriptionRequest(log: log, url: url, eventTypes: eventTypes, findingKinds: kind, rules: rule, label: label)
        let (subscription, secret) = try await Ledger.with(target, migrating: target.isEmbedded, progress: Console.note) { ledger in
            try await ledger.createSubscription(request)
        }
        Console.note("created subscription \(subscription.id) of log \(subscription.log) to \(subscription.url), from the log's start; "
                     + "its signing secret is shown once, keep it secret:")
        try Console.out(subscription.id)
        try Console.out(secret)
    }
}
