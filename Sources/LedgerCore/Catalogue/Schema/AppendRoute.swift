/// A way into the ledger for an event: the writers that come in by it, and the one database
/// function it ends in. Each event type says which routes may append it, and with which actors
/// (``EventSchema/appenders``, decision 0056); every route checks its events against that before
/// anything is stored, and the database checks again for every caller of its function.
public enum AppendRoute: String, Sendable, CaseIterable {
    /// The ordinary writers: `POST /v1/logs/{log}/events` (ingest and admin keys), `consent-ledger
    /// append` (`--bulk` too), and psql calling `ledger.append_events` as the application role.
    case append
    /// `POST /v1/logs/{log}/app-store/notifications` (ingest and admin keys): the ledger verified
    /// the App Store's signed notification itself and built the event from it (decision 0017).
    case appStoreNotification
    /// The erasure: `consent-ledger erase` and `POST /v1/logs/{log}/subjects/{subject}/erase`
    /// (admin keys), through `ledger.erase_subject`, which destroys the key and records the event
    /// in one transaction, as the owner.
    case erase
    /// The retention run: `consent-ledger retention`, through `ledger.apply_retention`, which
    /// destroys the keys in scope and records the event in one transaction, as the owner.
    case retention
    /// The webhook deliverer: a `ConsentRescinded` a subscription's receiver answered with a 2xx,
    /// through `ledger.record_withdrawal_delivered`, which stores the event only when it is exactly
    /// what that delivery-log row and the rescission say (decision 0084), in the transaction that
    /// writes the attempt; the `consent_ledger_deliverer` role may call it.
    case delivery

    /// The writers that come in by this route, as docs name them.
    public var writers: String {
        switch self {
        case .append:
            return "`POST /v1/logs/{log}/events` (ingest, admin keys), `consent-ledger append` (and `--bulk`), "
                + "`ledger.append_events` (application role)"
        case .appStoreNotification:
            return "`POST /v1/logs/{log}/app-store/notifications` (ingest, admin keys), after the ledger verified the signed notification"
        case .erase:
            return "`consent-ledger erase`, `POST /v1/logs/{log}/subjects/{subject}/erase` (admin keys)"
        case .retention:
            return "`consent-ledger retention`"
        case .delivery:
            return "the webhook deliverer (`serve`, `consent-ledger subscriptions deliver`), after a receiver took a `ConsentRescinded`"
        }
    }

    /// The database function every event of this route is stored through: `append_events` for the
    /// routes the application role reaches, the owner's operations for the ledger's own facts.
    public var databaseFunction: String {
        switch self {
        case .append, .appStoreNotification: return "ledger.append_events"
        case .erase: return "ledger.erase_subject"
        case .retention: return "ledger.apply_retention"
        case .delivery: return "ledger.record_withdrawal_delivered"
        }
    }

    /// Whether the route is one of the ledger's own operations (erase, retention, a delivery's
    /// record), whose database function records the event itself.
    public var isLedgerOperation: Bool { self == .erase || self == .retention || self == .delivery }

    /// What to use instead, when an event arrives by a route its type does not allow: the routes
    /// that do, in words a person can act on.
    static func instead(_ routes: [AppendRoute]) -> String {
        routes.map { route in
            switch route {
            case .append: return "append it as any other event"
            case .appStoreNotification:
                return "forward the App Store's signed notification to POST /v1/logs/{log}/app-store/notifications, "
                    + "which verifies it and records the event"
            case .erase: return "use `consent-ledger erase` (or POST /v1/logs/{log}/subjects/{subject}/erase with an admin key), "
                + "which destroys the subject's key and records the event"
            case .retention: return "use `consent-ledger retention`, which applies the retention policy and records the event"
            case .delivery: return "subscribe a webhook to ConsentRescinded (docs/subscriptions.md): the deliverer records the event "
                + "when the receiver takes the rescission"
            }
        }.joined(separator: "; or ")
    }
}
