import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// What one attempt to POST an item came to.
public struct AttemptResult: Sendable, Equatable {
    /// When it was made.
    public var attemptedAt: Date
    /// The receiver's status code; nil when it gave none.
    public var status: Int?
    /// The transport error, when there was no status.
    public var error: String?
    /// How long it took, in milliseconds.
    public var latencyMs: Double

    /// A result from its parts.
    public init(attemptedAt: Date, status: Int?, error: String?, latencyMs: Double) {
        self.attemptedAt = attemptedAt
        self.status = status
        self.error = error
        self.latencyMs = latencyMs
    }

    /// A 2xx.
    public var delivered: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// What one delivery pass of a subscription came to (``SubscriptionStore/deliver(_:limit:retry:send:)``).
public enum DeliveryPass: Sendable, Equatable {
    /// Another process holds the subscription (it is delivering it).
    case busy
    /// It is dead, deleted or gone: nothing to do until it is replayed.
    case inactive
    /// It is failing and not due before this.
    case notDue(Date)
    /// Nothing new to send.
    case idle
    /// This many items delivered, all that were there (up to the pass's limit).
    case delivered(Int)
    /// An item failed after `delivered` others went; tried again at `retryAt`, or never when the
    /// subscription is now dead.
    case failed(delivered: Int, retryAt: Date?)
}

extension SubscriptionStore {
    /// The active subscriptions' ids and logs, for the deliverer to follow.
    public func active() async throws -> [(id: String, log: String)] {
        let rows = try await pool.query("SELECT subscription_id, log_id FROM ledger.subscriptions WHERE state = 'active' ORDER BY subscription_id",
                                        logger: logger)
        var found: [(id: String, log: String)] = []
        for try await (id, log) in rows.decode((String, String).self) { found.append((id, log)) }
        return found
    }

    /// One delivery pass of subscription `id`: under an advisory lock (so no two processes deliver
    /// it at once; a process that dies lets go with its connection), reads up to `limit` of its next
    /// items on the same connection (up to the position the anomalies projection has judged), and hands each to `send` in order, with the subscription (its URL and secret) and the
    /// item's body. Each attempt is written to the delivery log; a 2xx
    /// moves the cursor past the item in the same statement, anything else counts a failure, sets
    /// the next attempt by `retry` (or the subscription dead when the item has failed for
    /// `retry.giveUpAfter`) and ends the pass.
    public func deliver(_ id: String, limit: Int = 100, retry: WebhookRetry,
                        send: @Sendable (SubscriptionTarget, WebhookItem, [UInt8]) async -> AttemptResult) async throws -> DeliveryPass {
        try await pool.withConnection { connection in
            var locked = false
            for try await taken in try await connection.watchedQuery(
                "SELECT pg_try_advisory_lock(\(Self.lockSpace), hashtext(\(id)))", logger: logger).decode(Bool.self) { locked = taken }
            guard locked else { return .busy }
            do {
                let pass = try await deliverLocked(id, on: connection, limit: limit, retry: retry, send: send)
                _ = try await connection.watchedQuery("SELECT pg_advisory_unlock(\(Self.lockSpace), hashtext(\(id)))", logger: logger)
                return pass
            } catch {
                _ = try? await connection.watchedQuery("SELECT pg_advisory_unlock(\(Self.lockSpace), hashtext(\(id)))", logger: logger)
                throw error
            }
        }
    }

    /// The advisory locks' first key: subscriptions' locks share it ('CLwh').
    static let lockSpace: Int32 = 0x434C_7768

    private func deliverLocked(_ id: String, on connection: PostgresConnection, limit: Int,
                               retry: WebhookRetry,
                               send: @Sendable (SubscriptionTarget, WebhookItem, [UInt8]) async -> AttemptResult) async throws -> DeliveryPass {
        guard var target = try await SubscriptionTarget.read(id, on: connection, logger: logger), target.state == "active" else { return .inactive }
        if let next = target.nextAttemptAt, next > Date() { return .notDue(next) }
        let due = try await SubscriptionItems.read(target, limit: limit, on: connection, logger: logger)
        guard !due.isEmpty else { return .idle }
        var delivered = 0
        for item in due {
            let body = try item.body(subscription: target.id, log: target.log)
            let result = await send(target, item, body)
            guard let retryAt = try await record(result, of: item, for: target, on: connection, retry: retry) else {
                return .inactive  // Replayed, deleted or moved by another writer meanwhile: the next pass reads it again.
            }
            guard result.delivered else { return .failed(delivered: delivered, retryAt: retryAt) }
            delivered += 1
            target.cursor = SubscriptionCursor(after: item)
            target.failures = 0
            target.nextAttemptAt = nil
        }
        return .delivered(delivered)
    }

    /// Writes the attempt to the delivery log and moves the subscription, in one statement, only if
    /// it still stands where `target` says. Nil when it had moved; otherwise the time of the next
    /// attempt (itself nil after a 2xx, or when the subscription is now dead).
    private func record(_ result: AttemptResult, of item: WebhookItem, for target: SubscriptionTarget, on connection: PostgresConnection,
                        retry: WebhookRetry) async throws -> Date?? {
        let attempt = Int32(target.failures + 1)
        let status = result.status.map(Int32.init)
        let error = result.status == nil ? (result.error ?? "no answer") : nil
        let change: String
        if result.delivered {
            let next = SubscriptionCursor(after: item)
            change = """
                cursor_position = \(next.position), cursor_rule = \(Self.literal(next.rule ?? "")), failures = 0, failing_since = NULL,
                next_attempt_at = NULL
                """
        } else {
            let delay = retry.delaySeconds(afterFailures: target.failures + 1)
            change = """
                failures = failures + 1, failing_since = coalesce(failing_since, a.at),
                next_attempt_at = CASE WHEN a.at - coalesce(failing_since, a.at) >= make_interval(secs => \(retry.giveUpSeconds)) THEN NULL
                                       ELSE a.at + make_interval(secs => \(delay)) END,
                state = CASE WHEN a.at - coalesce(failing_since, a.at) >= make_interval(secs => \(retry.giveUpSeconds)) THEN 'dead' ELSE state END
                """
        }
        let statement: PostgresQuery = """
            WITH a AS (
              INSERT INTO ledger.deliveries (log_id, subscription_id, item_id, position, attempt, attempted_at, status, error, latency_ms)
              VALUES (\(target.log), \(target.id), \(item.id), \(item.position), \(attempt), \(result.attemptedAt), \(status), \(error), \(result.latencyMs))
              RETURNING attempted_at AS at, delivery_id
            )
            UPDATE ledger.subscriptions SET \(unescaped: change)
              FROM a
             WHERE log_id = \(target.log) AND subscription_id = \(target.id) AND state = 'active'
               AND cursor_position = \(target.cursor.position) AND cursor_rule IS NOT DISTINCT FROM \(target.cursor.rule)
            RETURNING next_attempt_at, a.delivery_id
            """
        let logger = self.logger
        guard result.delivered, item.isConsentRescinded else {
            for try await (next, _) in try await connection.watchedQuery(statement, logger: logger).decode((Date?, Int64).self) {
                return .some(next)
            }
            return nil
        }
        // A withdrawal the receiver took: the attempt, the cursor and the WithdrawalDelivered that
        // says so commit together (decision 0084), or none of them and the item is sent again.
        return try await connection.inTransaction(logger: logger) { connection in
            var moved: (next: Date?, delivery: Int64)?
            for try await row in try await connection.watchedQuery(statement, logger: logger).decode((Date?, Int64).self) { moved = row }
            guard let moved else { return nil }
            try await Self.recordWithdrawalDelivered(log: target.log, delivery: moved.delivery, on: connection, logger: logger)
            return .some(moved.next)
        }
    }

    /// Stores the `WithdrawalDelivered` of delivery `delivery`: the event as
    /// `ledger.withdrawal_delivered_event` makes it, given an event id and put in RFC 8785 form,
    /// through `ledger.record_withdrawal_delivered`, which stores nothing else.
    static func recordWithdrawalDelivered(log: String, delivery: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        var made: String?
        for try await text in try await connection.watchedQuery(
            "SELECT ledger.withdrawal_delivered_event(\(log), \(delivery))::text", logger: logger).decode(String?.self) { made = text }
        guard let made, case .object(var members) = try JSONParser.parse(Array(made.utf8)) else {
            throw LedgerError(.databaseError, "delivery \(delivery) of log \(log) is not a 2xx delivery of a ConsentRescinded",
                              hint: "Report this: the deliverer records a withdrawal only for such a delivery.")
        }
        members["eventId"] = .string(UUID().uuidString.lowercased())
        let event = try EventInput(json: .object(members))
        for try await _ in try await connection.watchedQuery(
            "SELECT position FROM ledger.record_withdrawal_delivered(\(log), \(delivery), \(event.canonicalText))", logger: logger)
            .decode(Int64.self) {}
    }

    /// A rule id (checked a-z, 0-9 and '-', or empty) as an SQL literal.
    private static func literal(_ rule: String) -> String {
        precondition(rule.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }, "not a rule id: \(rule)")
        return "'\(rule)'"
    }
}

/// What the deliverer reads of a subscription: where and how to send, what to send, and where it
/// stands. Read only by the owner (it holds the secret).
public struct SubscriptionTarget: Sendable, Equatable {
    /// The id.
    public var id: String
    /// The log.
    public var log: String
    /// Where to POST.
    public var url: String
    /// The signing secret.
    public var secret: String
    /// The event types sent.
    public var eventTypes: [String]
    /// The findings' `source` values sent (``LedgerRule/Kind/findingSource``).
    public var findingSources: [String]
    /// The rules sent (empty: all of the kinds).
    public var rules: [String]
    /// `active`, `dead` or `deleted`.
    public var state: String
    /// Where it stands.
    public var cursor: SubscriptionCursor
    /// Failed attempts at the next item.
    public var failures: Int
    /// When it is due again, if it is failing.
    public var nextAttemptAt: Date?

    static func read(_ id: String, on connection: PostgresConnection, logger: Logger) async throws -> SubscriptionTarget? {
        let rows = try await connection.watchedQuery("""
            SELECT subscription_id, log_id, url, secret, event_types, finding_kinds, rules, state, cursor_position, cursor_rule, failures,
                   next_attempt_at
              FROM ledger.subscriptions WHERE subscription_id = \(id)
            """, logger: logger)
        for try await (id, log, url, secret, types, kinds, rules, state, position, rule, failures, next) in rows.decode(
            (String, String, String, String, [String], [String], [String], String, Int64, String?, Int32, Date?).self) {
            return SubscriptionTarget(id: id, log: log, url: url, secret: secret, eventTypes: types,
                                      findingSources: kinds.compactMap { LedgerRule.Kind(rawValue: $0)?.findingSource }, rules: rules,
                                      state: state, cursor: SubscriptionCursor(position: position, rule: rule), failures: Int(failures),
                                      nextAttemptAt: next)
        }
        return nil
    }
}
