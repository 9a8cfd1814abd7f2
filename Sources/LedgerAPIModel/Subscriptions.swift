import LedgerCore

extension APIModel {
    /// The body of `POST /v1/logs/{log}/subscriptions` (`SubscriptionRequest`).
    public struct SubscriptionRequest: Codable, Sendable, Equatable {
        /// Where items are POSTed (http or https).
        public var url: String
        /// Event types sent.
        public var eventTypes: [String]?
        /// Finding kinds sent (`violation`, `anomaly`).
        public var findingKinds: [String]?
        /// Rules whose findings are sent (only these, when given).
        public var rules: [String]?
        /// Who it is for.
        public var label: String?

        /// A request from its parts.
        public init(url: String, eventTypes: [String]? = nil, findingKinds: [String]? = nil, rules: [String]? = nil, label: String? = nil) {
            self.url = url
            self.eventTypes = eventTypes
            self.findingKinds = findingKinds
            self.rules = rules
            self.label = label
        }
    }

    /// The answer to a new subscription (`SubscriptionCreated`): it, and its signing secret, shown this once.
    public struct SubscriptionCreated: Codable, Sendable, Equatable {
        /// The subscription.
        public var subscription: Subscription
        /// The `whsec_…` secret every delivery is signed with.
        public var secret: String

        /// An answer from its parts.
        public init(subscription: Subscription, secret: String) {
            self.subscription = subscription
            self.secret = secret
        }
    }

    /// A log's subscriptions (`SubscriptionList`).
    public struct SubscriptionList: Codable, Sendable, Equatable {
        /// Oldest first, deleted ones included.
        public var subscriptions: [Subscription]

        /// A list from its parts.
        public init(subscriptions: [Subscription]) {
            self.subscriptions = subscriptions
        }
    }

    /// A subscription's delivery log (`DeliveryLog`).
    public struct DeliveryLog: Codable, Sendable, Equatable {
        /// The subscription's id.
        public var subscription: String
        /// Newest first.
        public var deliveries: [DeliveryAttempt]

        /// A log from its parts.
        public init(subscription: String, deliveries: [DeliveryAttempt]) {
            self.subscription = subscription
            self.deliveries = deliveries
        }
    }
}
