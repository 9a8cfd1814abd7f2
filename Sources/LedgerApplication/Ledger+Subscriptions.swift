import LedgerCore
import LedgerPostgres
import Synchronization

extension Ledger {
    /// Creates a webhook subscription (decision 0083); returns it and its signing secret, shown once.
    public func createSubscription(_ request: SubscriptionRequest) async throws -> (Subscription, String) {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).create(request)
    }

    /// The subscriptions (of `log`, when given), deleted ones included.
    public func subscriptions(log: String? = nil) async throws -> [Subscription] {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).list(log: log)
    }

    /// Subscription `id` (of `log`, when given); `subscription-not-found` otherwise.
    public func subscription(_ id: String, log: String? = nil) async throws -> Subscription {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).subscription(id, log: log)
    }

    /// Deletes subscription `id` (of `log`, when given): nothing more is sent; its delivery log stays.
    public func deleteSubscription(_ id: String, log: String? = nil) async throws -> Subscription {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).delete(id, log: log)
    }

    /// Sends subscription `id` (of `log`, when given) its items again from `position`, reviving it
    /// if it was dead.
    public func replaySubscription(_ id: String, log: String? = nil, from position: Int64) async throws -> Subscription {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).replay(id, log: log, from: position)
    }

    /// The newest `limit` attempts of subscription `id`'s delivery log (of `log`, when given).
    public func deliveries(_ id: String, log: String? = nil, limit: Int = 100) async throws -> [DeliveryAttempt] {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).deliveries(id, log: log, limit: limit)
    }

    /// One delivery pass of subscription `id` (``SubscriptionStore/deliver(_:limit:retry:send:)``):
    /// its next items POSTed in order until one fails or none is left.
    public func deliverSubscription(_ id: String, sender: WebhookSender, retry: WebhookRetry = .standard,
                                    limit: Int = 100) async throws -> DeliveryPass {
        try await SubscriptionStore(pool: pools.administrator, logger: logger).deliver(id, limit: limit, retry: retry) {
            target, item, body in await sender.send(item, body: body, to: target.url, secret: target.secret)
        }
    }

    /// Delivers every active subscription until the task is cancelled, each in a task of its own (a
    /// slow or failing receiver delays only its own subscription): a subscription's next items go
    /// as soon as the anomalies projection has folded its log (``folds``, moved by ``followFolds()``,
    /// which must run beside it), or after `backstop` in any case; a failing one is tried again as
    /// `retry` says; new, replayed and revived subscriptions are picked up within `backstop`.
    /// `note` hears each failure, each subscription given up, and each database error (tried again).
    public func deliverWebhooks(sender: WebhookSender, retry: WebhookRetry = .standard, backstop: Duration = .seconds(2),
                                note: @escaping @Sendable (String) -> Void) async {
        let store = SubscriptionStore(pool: pools.administrator, logger: logger)
        let running = RunningSubscriptions()
        await withDiscardingTaskGroup { group in
            var failing = false
            while !Task.isCancelled {
                do {
                    for (id, log) in try await store.active() {
                        guard running.start(id) else { continue }
                        group.addTask {
                            await self.follow(id, log: log, sender: sender, retry: retry, backstop: backstop, note: note)
                            running.end(id)
                        }
                    }
                    if failing { note("webhooks: the subscriptions can be read again") }
                    failing = false
                } catch {
                    if !failing { note("webhooks: the subscriptions cannot be read (\(error)); trying again every \(backstop)") }
                    failing = true
                }
                try? await Task.sleep(for: backstop)
            }
        }
    }

    /// Delivers one subscription until it is no longer active or the task is cancelled.
    private func follow(_ id: String, log: String, sender: WebhookSender, retry: WebhookRetry, backstop: Duration,
                        note: @escaping @Sendable (String) -> Void) async {
        var failing = false
        while !Task.isCancelled {
            let seen = folds.count(of: log)
            let pass: DeliveryPass
            do {
                pass = try await deliverSubscription(id, sender: sender, retry: retry)
                failing = false
            } catch {
                if !failing { note("webhooks: subscription \(id): \(error); trying again every \(backstop)") }
                failing = true
                try? await Task.sleep(for: backstop)
                continue
            }
            switch pass {
            case .inactive: return
            case .delivered: continue
            case .idle: await folds.wait(log: log, after: seen, atMost: backstop)
            case .busy: try? await Task.sleep(for: backstop)
            case .notDue(let at): try? await Task.sleep(for: min(backstop, .seconds(max(0.01, at.timeIntervalSinceNow))))
            case .failed(_, let retryAt):
                guard let retryAt else {
                    note("webhooks: subscription \(id) is dead: an item failed for \(retry.giveUpAfter); "
                         + "`consent-ledger subscriptions replay \(id) --from P` sends again from P")
                    return
                }
                note("webhooks: subscription \(id): an item failed; tried again at \(retryAt) (consent-ledger subscriptions deliveries \(id))")
                try? await Task.sleep(for: min(backstop, .seconds(max(0.01, retryAt.timeIntervalSinceNow))))
            }
        }
    }
}

/// The subscriptions a deliverer has a task for.
private final class RunningSubscriptions: Sendable {
    private let ids = Mutex(Set<String>())

    /// True when `id` had no task and now counts as having one.
    func start(_ id: String) -> Bool { ids.withLock { $0.insert(id).inserted } }

    /// `id`'s task ended.
    func end(_ id: String) { _ = ids.withLock { $0.remove(id) } }
}
