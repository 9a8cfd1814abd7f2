import ArgumentParser

/// `consent-ledger subscriptions create | list | deliveries | replay | delete | deliver`: webhooks.
struct Subscriptions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create, list, replay or delete webhook subscriptions, read their delivery log, or deliver them.",
        discussion: """
            A subscription POSTs a log's events of the types asked and its findings of the kinds (and rules) \
            asked to a URL, in log order, at least once, each signed with the subscription's secret \
            (ConsentLedger-Signature: t=...,v1=HMAC-SHA256; docs/subscriptions.md shows the check). A failed \
            delivery is tried again after 1 s, doubling to 10 minutes, for 24 hours; then the subscription is \
            dead until replayed. `serve` delivers them (so does `subscriptions deliver`, for a server of your own).
            """,
        subcommands: [SubscriptionsCreate.self, SubscriptionsList.self, SubscriptionsDeliveries.self, SubscriptionsReplay.self,
                      SubscriptionsDelete.self, SubscriptionsDeliver.self]
    )
}
