/// `WithdrawalDelivered`: the ledger told the app's backend of a withdrawal of consent. A webhook
/// subscription's receiver answered a `ConsentRescinded` with a 2xx (decision 0084): the evidence of
/// when the app was told, beside the `AccessGateApplied` that says when it closed the feature.
public struct WithdrawalDelivered: EventPayload {
    /// `WithdrawalDelivered`.
    public static let eventType = "WithdrawalDelivered"
    /// 1.
    public static let schemaVersion = 1

    /// The `eventId` of the `ConsentRescinded` delivered.
    public var rescissionEventId: String
    /// Its log position.
    public var rescissionPosition: Int
    /// The subscription that delivered it.
    public var subscriptionId: String
    /// The attempt's row in the subscription's delivery log.
    public var deliveryId: Int
    /// Which attempt at the item it was (1: the first).
    public var attempt: Int
    /// The receiver's status code (2xx: it took the item).
    public var status: Int
    /// When the receiver answered, by the ledger's clock (the attempt's start plus its latency, to the millisecond).
    public var deliveredAt: String

    /// Creates the payload.
    public init(rescissionEventId: String, rescissionPosition: Int, subscriptionId: String, deliveryId: Int, attempt: Int,
                status: Int, deliveredAt: String) {
        self.rescissionEventId = rescissionEventId
        self.rescissionPosition = rescissionPosition
        self.subscriptionId = subscriptionId
        self.deliveryId = deliveryId
        self.attempt = attempt
        self.status = status
        self.deliveredAt = deliveredAt
    }
}

extension WithdrawalDelivered {
    /// The schema.
    public static let schema = EventSchema(
        WithdrawalDelivered.self, group: .ledger,
        summary: "The ledger told the app's backend of a withdrawal of consent: a webhook subscription's receiver answered "
            + "the `ConsentRescinded` with a 2xx. Recorded by the deliverer from its delivery log (decision 0084); "
            + "the regulator report and the consent register show it as the time the app was told.",
        fields: [
            .required("rescissionEventId", .token(.uuid), "The `eventId` of the `ConsentRescinded` delivered."),
            .required("rescissionPosition", .integer(1...FieldKind.largestInteger), "Its log position."),
            .required("subscriptionId", .token(.identifier), "The webhook subscription that delivered it."),
            .required("deliveryId", .integer(1...FieldKind.largestInteger), "The attempt's row in the subscription's delivery log."),
            .required("attempt", .integer(1...FieldKind.largestInteger), "Which attempt at the item it was (1: the first)."),
            .required("status", .integer(200...299), "The receiver's status code."),
            .required("deliveredAt", .token(.timestamp), "When the receiver answered, by the ledger's clock."),
        ],
        // Only the deliverer's database function stores it, building nothing it cannot check: the
        // event must be exactly what the delivery log's 2xx row and the ConsentRescinded it names say.
        appenders: [EventAppender(.delivery, actors: ["ledger"])],
        examples: [[
            "rescissionEventId": "002e14d5-51f5-4503-b5a8-c3a1af68eb20", "rescissionPosition": 1_042,
            "subscriptionId": "sub_k3v9q2m7x1ab", "deliveryId": 88, "attempt": 1, "status": 200,
            "deliveredAt": "2026-11-20T16:02:19.412Z",
        ]]
    )
}

extension WithdrawalDelivered {
    /// The sentence `replay`, `explain` and the console print for an event of this type
    /// (``EventNarrative``), read leniently from its payload and the ledger's derived facts.
    public static func sentence(payload p: EventNarrative.Reader, derived _: EventNarrative.Reader) -> String {
        "The ledger told the app of the withdrawal of consent at position \(p.int("rescissionPosition").map(String.init) ?? "?"): "
            + "subscription \(p.string("subscriptionId") ?? "?")'s receiver answered \(p.int("status").map(String.init) ?? "?") "
            + "at \(p.string("deliveredAt") ?? "?") (attempt \(p.int("attempt").map(String.init) ?? "?"))."
    }

    /// This payload as the case of ``EventBody`` the folds switch on.
    public var body: EventBody { .withdrawalDelivered(self) }
}
