import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Webhook subscriptions in `ledger.subscriptions` and their delivery log in `ledger.deliveries`
/// (decision 0083), over the owner's pool: only the owner reads the table, which holds each
/// subscription's signing secret. Created, listed, replayed and deleted by an administrator
/// (`consent-ledger subscriptions`, the admin HTTP routes); delivered by ``WebhookDeliverer``.
public struct SubscriptionStore: Sendable {
    /// The owner's pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over the owner's pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.subscriptions")) {
        self.pool = pool
        self.logger = logger
    }

    /// Stores a subscription for `request` (checked first, ``SubscriptionRequest/validated()``),
    /// delivered from the start of the log; returns it and its signing secret, shown once.
    public func create(_ request: SubscriptionRequest) async throws -> (Subscription, String) {
        guard request.log.range(of: "^[a-z0-9][a-z0-9._-]{0,62}$", options: .regularExpression) != nil else {
            throw LedgerError(.invalidLogId, "invalid log id \(request.log)", hint: "A log id is 1 to 63 characters of a-z, 0-9, '.', '_' and '-'.")
        }
        let checked = try request.validated()
        let id = "sub_" + APIKeyStore.randomToken(length: 12)
        let secret = "whsec_" + Self.randomSecret()
        let rows = try await pool.query("""
            INSERT INTO ledger.subscriptions (subscription_id, log_id, url, event_types, finding_kinds, rules, secret, label)
            VALUES (\(id), \(checked.log), \(checked.url), \(checked.eventTypes), \(checked.findingKinds.map(\.rawValue)), \(checked.rules),
                    \(secret), \(checked.label))
            RETURNING \(unescaped: Self.columns)
            """, logger: logger)
        for try await row in rows.decode(Self.Row.self) { return (Self.subscription(row), secret) }
        throw LedgerError(.databaseError, "the new subscription was not returned")
    }

    /// The subscriptions (of `log`, when given), deleted ones included, oldest first.
    public func list(log: String? = nil) async throws -> [Subscription] {
        let rows = try await pool.query("""
            SELECT \(unescaped: Self.columns) FROM ledger.subscriptions
             WHERE \(log)::text IS NULL OR log_id = \(log) ORDER BY created_at, subscription_id
            """, logger: logger)
        var found: [Subscription] = []
        for try await row in rows.decode(Self.Row.self) { found.append(Self.subscription(row)) }
        return found
    }

    /// The subscription `id` of `log` (any log when nil), or a `subscription-not-found` error.
    public func subscription(_ id: String, log: String? = nil) async throws -> Subscription {
        let rows = try await pool.query("""
            SELECT \(unescaped: Self.columns) FROM ledger.subscriptions
             WHERE subscription_id = \(id) AND (\(log)::text IS NULL OR log_id = \(log))
            """, logger: logger)
        for try await row in rows.decode(Self.Row.self) { return Self.subscription(row) }
        throw Self.notFound(id, log: log)
    }

    /// Deletes subscription `id` (of `log`, when given): it is never delivered again; its row and
    /// delivery log stay. Returns it as it now is.
    public func delete(_ id: String, log: String? = nil) async throws -> Subscription {
        try await change(id, log: log, set: "state = 'deleted', next_attempt_at = NULL")
    }

    /// Sets subscription `id` (of `log`, when given) to deliver again from `position` (its items at
    /// `position` and after), active again if it was dead; a deleted one stays deleted.
    public func replay(_ id: String, log: String? = nil, from position: Int64) async throws -> Subscription {
        guard position >= 1 else {
            throw LedgerError(.invalidField, "a replay starts at a position of 1 or more, not \(position)", field: "from",
                              hint: "--from 1 sends every item again.")
        }
        let existing = try await subscription(id, log: log)
        guard existing.state != .deleted else {
            throw LedgerError(.invalidRequest, "subscription \(id) is deleted; it cannot be replayed",
                              hint: "Create a new subscription (consent-ledger subscriptions create): it starts at the log's beginning.")
        }
        return try await change(id, log: log, set: """
            state = 'active', cursor_position = \(position - 1), cursor_rule = NULL, failures = 0, failing_since = NULL, next_attempt_at = NULL
            """)
    }

    /// The last `limit` attempts of subscription `id`'s delivery log (of `log`, when given), newest
    /// first.
    public func deliveries(_ id: String, log: String? = nil, limit: Int = 100) async throws -> [DeliveryAttempt] {
        let owner = try await subscription(id, log: log).log
        let rows = try await pool.query("""
            SELECT item_id, position, attempt, to_char(attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), status, error, latency_ms
              FROM ledger.deliveries WHERE log_id = \(owner) AND subscription_id = \(id) ORDER BY delivery_id DESC LIMIT \(Int64(min(max(limit, 1), 10_000)))
            """, logger: logger)
        var found: [DeliveryAttempt] = []
        for try await (item, position, attempt, at, status, error, latency) in rows.decode((String, Int64, Int32, String, Int32?, String?, Double).self) {
            found.append(DeliveryAttempt(item: item, position: position, attempt: Int(attempt), attemptedAt: at, status: status.map(Int.init),
                                         error: error, latencyMs: latency))
        }
        return found
    }

    private func change(_ id: String, log: String?, set: String) async throws -> Subscription {
        let rows = try await pool.query("""
            UPDATE ledger.subscriptions SET \(unescaped: set)
             WHERE subscription_id = \(id) AND (\(log)::text IS NULL OR log_id = \(log))
            RETURNING \(unescaped: Self.columns)
            """, logger: logger)
        for try await row in rows.decode(Self.Row.self) { return Self.subscription(row) }
        throw Self.notFound(id, log: log)
    }

    static func notFound(_ id: String, log: String?) -> LedgerError {
        LedgerError(.subscriptionNotFound, "no subscription \(id)" + (log.map { " of log \($0)" } ?? ""),
                    hint: "consent-ledger subscriptions list shows them (GET /v1/logs/{log}/subscriptions).")
    }

    typealias Row = (String, String, String, [String], [String], [String], String, String, Int64, String?, Int32, String?, String?, String)

    static let columns = """
        subscription_id, log_id, url, event_types, finding_kinds, rules, label, state, cursor_position, cursor_rule, failures,
        to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        to_char(next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        """

    static func subscription(_ row: Row) -> Subscription {
        let (id, log, url, types, kinds, rules, label, state, position, rule, failures, failing, next, created) = row
        return Subscription(id: id, log: log, url: url, eventTypes: types, findingKinds: kinds, rules: rules, label: label,
                            state: Subscription.State(rawValue: state) ?? .dead,
                            deliveredThrough: SubscriptionCursor(position: position, rule: rule).delivered,
                            failures: Int(failures), failingSince: failing, nextAttemptAt: next, createdAt: created)
    }

    /// 43 characters of a-z, A-Z and 0-9 (about 256 bits).
    static func randomSecret() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<43).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

/// Where a subscription stands, as `ledger.subscriptions` keeps it: the position of the last item
/// delivered and, at it, `rule` nil (everything at the position is behind: the start, or a replay),
/// `""` (its event is behind, its findings not yet) or a rule (that finding is behind, and the event
/// and the findings of rules before it).
public struct SubscriptionCursor: Sendable, Equatable {
    /// The position.
    public var position: Int64
    /// nil, `""` or a rule id.
    public var rule: String?

    /// A cursor from its parts.
    public init(position: Int64, rule: String?) {
        self.position = position
        self.rule = rule
    }

    /// The cursor just after `item`.
    public init(after item: WebhookItem) {
        self.init(position: item.position, rule: item.rule ?? "")
    }

    /// The last item delivered, as its id (`0` when none).
    public var delivered: String {
        guard let rule, !rule.isEmpty else { return String(position) }
        return "\(position).\(rule)"
    }
}
