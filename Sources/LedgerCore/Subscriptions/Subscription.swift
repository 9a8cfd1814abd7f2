import Foundation

/// A webhook subscription (decision 0083): a log's events of the asked types and its findings of
/// the asked kinds (and rules), POSTed to a URL in log order, at least once, each signed with the
/// subscription's secret (``WebhookSignature``). What `consent-ledger subscriptions list` shows; the
/// secret is never part of it.
public struct Subscription: Sendable, Equatable, Codable {
    /// Whether it is delivered.
    public enum State: String, Sendable, Codable {
        /// Delivered as items come.
        case active
        /// An item failed for longer than ``WebhookRetry/giveUpAfter``: nothing is sent until it is
        /// replayed (`consent-ledger subscriptions replay`).
        case dead
        /// Deleted: never delivered again; its row and delivery log stay.
        case deleted
    }

    /// `sub_` and twelve characters of a-z and 0-9.
    public var id: String
    /// The log (tenant) it follows.
    public var log: String
    /// Where items are POSTed.
    public var url: String
    /// The event types sent (every event of these types).
    public var eventTypes: [String]
    /// The finding kinds sent (`violation`, `anomaly`).
    public var findingKinds: [String]
    /// The rules whose findings are sent; empty: every rule of the asked kinds.
    public var rules: [String]
    /// Who it is for, in words.
    public var label: String
    /// Delivered, dead or deleted.
    public var state: State
    /// The id of the last item the receiver answered with a 2xx (`0`: none yet).
    public var deliveredThrough: String
    /// Failed attempts at the item after it, since the last 2xx.
    public var failures: Int
    /// When the item after it first failed, if it is failing.
    public var failingSince: String?
    /// When it is tried again, if it is failing.
    public var nextAttemptAt: String?
    /// When it was created.
    public var createdAt: String

    /// A subscription from its parts.
    public init(id: String, log: String, url: String, eventTypes: [String], findingKinds: [String], rules: [String], label: String,
                state: State, deliveredThrough: String, failures: Int, failingSince: String?, nextAttemptAt: String?, createdAt: String) {
        self.id = id
        self.log = log
        self.url = url
        self.eventTypes = eventTypes
        self.findingKinds = findingKinds
        self.rules = rules
        self.label = label
        self.state = state
        self.deliveredThrough = deliveredThrough
        self.failures = failures
        self.failingSince = failingSince
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
    }

    /// Whether `id` is written as a subscription's id is.
    public static func isID(_ id: String) -> Bool {
        id.count == 16 && id.hasPrefix("sub_") && id.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
    }
}

/// What a new subscription asks for, checked before anything is stored: a URL with an http or https
/// scheme and a host, event types of the catalogue, finding kinds and rules of the rules catalogue,
/// and at least one event type or finding kind.
public struct SubscriptionRequest: Sendable, Equatable {
    /// The log.
    public var log: String
    /// Where to POST.
    public var url: String
    /// Event types to send.
    public var eventTypes: [String]
    /// Finding kinds to send.
    public var findingKinds: [LedgerRule.Kind]
    /// Rules to send findings of (empty: every rule of the kinds asked).
    public var rules: [String]
    /// Who it is for.
    public var label: String

    /// A request from its parts; ``validated()`` checks it.
    public init(log: String, url: String, eventTypes: [String] = [], findingKinds: [LedgerRule.Kind] = [], rules: [String] = [],
                label: String = "") {
        self.log = log
        self.url = url
        self.eventTypes = eventTypes
        self.findingKinds = findingKinds
        self.rules = rules
        self.label = label
    }

    /// The request with duplicates removed, or an error naming the first thing wrong and how to put
    /// it right.
    public func validated() throws -> SubscriptionRequest {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host, !host.isEmpty, url.count <= 2000, !url.contains(where: \.isWhitespace), parsed.user == nil
        else {
            throw LedgerError(.invalidField, "url: \(url) is not an http or https URL with a host", field: "url",
                              hint: "Give the receiver's address, such as https://backend.example/consent-ledger/webhook (at most 2,000 characters, no credentials in it).")
        }
        for type in eventTypes where EventCatalogue.schema(for: type) == nil {
            throw LedgerError(.invalidField, "event type \(type) is not in the event catalogue", field: "eventTypes",
                              hint: "`consent-ledger catalogue` lists the types (ConsentRescinded, AccessGateApplied, ...).")
        }
        var kinds = findingKinds
        for rule in rules {
            guard let known = RuleCatalogue.rule(rule) else {
                throw LedgerError(.invalidField, "rule \(rule) is not in the rules catalogue", field: "rules",
                                  hint: "`consent-ledger rules` lists the rules and docs/rules.md explains them.")
            }
            if !kinds.contains(known.kind) { kinds.append(known.kind) }
        }
        guard !eventTypes.isEmpty || !kinds.isEmpty else {
            throw LedgerError(.missingField, "a subscription must ask for at least one event type or finding kind", field: "eventTypes",
                              hint: "For example --event-type ConsentRescinded --kind violation.")
        }
        guard label.count <= 200 else { throw LedgerError(.invalidField, "a label is at most 200 characters", field: "label") }
        var checked = self
        checked.eventTypes = Self.unique(eventTypes)
        checked.findingKinds = [LedgerRule.Kind.violation, .anomaly].filter(kinds.contains)
        checked.rules = Self.unique(rules)
        return checked
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
