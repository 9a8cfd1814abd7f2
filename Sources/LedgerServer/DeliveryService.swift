import LedgerApplication
import ServiceLifecycle

/// Delivers the webhook subscriptions (``Ledger/deliverWebhooks(sender:retry:backstop:note:)``,
/// decision 0083) beside the projections, woken by the same fold notifications as the findings
/// streams (``FoldListenerService``). Stops with the server; an attempt under way when it stops is
/// cut off and, not having moved its subscription's cursor, is made again at the next start.
public struct DeliveryService: Service {
    let ledger: Ledger
    let note: @Sendable (String) -> Void

    /// A service delivering `ledger`'s subscriptions, telling `note` of failures.
    public init(ledger: Ledger, note: @escaping @Sendable (String) -> Void) {
        self.ledger = ledger
        self.note = note
    }

    public func run() async throws {
        let http = WebhookSender.makeClient()
        await cancelWhenGracefulShutdown {
            await ledger.deliverWebhooks(sender: WebhookSender(http: http), note: note)
        }
        try await http.shutdown()
    }
}
