import LedgerCore

/// Group commit: concurrent single-event appends to one log share one transaction, so that many
/// apps posting one event each are not limited to one commit (and one WAL flush) per event.
///
/// The first request for a log starts a flush; requests arriving while it commits wait and go in
/// the next one, up to `maxBatch` at a time. Each request is answered only after the transaction
/// holding its event has committed.
/// - Requests without an idempotency key share one `append_events` call. When that shared batch
///   is refused (one event's expected version, a duplicate id, a subject erased…), nothing of it
///   is stored, and its events are appended one by one (``EventStore/appendSingle(log:event:)``)
///   so that each request gets its own answer and no event is refused for another's fault.
/// - Requests with an `Idempotency-Key` (a retrying mobile client's) each keep their own call,
///   key and answer, in a savepoint of one shared transaction
///   (``EventStore/appendEach(log:requests:)``): one commit for all of them.
/// Every path ends in ``EventStore/append(log:events:idempotencyKey:)``.
public actor GroupCommit {
    private struct Waiter {
        let event: EventInput
        let idempotencyKey: String?
        let continuation: CheckedContinuation<AppendResult, any Error>
    }

    private let store: EventStore
    private let maxBatch: Int
    private var pending: [String: [Waiter]] = [:]
    private var flushing: Set<String> = []

    /// A group commit over `store`, at most `maxBatch` events per shared transaction.
    public init(store: EventStore, maxBatch: Int = 500) {
        self.store = store
        self.maxBatch = maxBatch
    }

    /// Appends `event` to `log`, possibly with others; returns once it is committed.
    /// - Parameter idempotencyKey: the request's key: a retry with it returns the original position
    ///   and writes nothing, as it would alone.
    public func append(log: String, event: EventInput, idempotencyKey: String? = nil) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            pending[log, default: []].append(Waiter(event: event, idempotencyKey: idempotencyKey, continuation: continuation))
            if flushing.insert(log).inserted {
                Task { await self.flush(log: log) }
            }
        }
    }

    /// Commits what is pending for `log`, batch after batch, until nothing is.
    private func flush(log: String) async {
        while let queued = pending[log], !queued.isEmpty {
            let batch = Array(queued.prefix(maxBatch))
            pending[log] = Array(queued.dropFirst(batch.count))
            // The actor is free while this awaits: new requests queue up for the next batch.
            await commit(batch, log: log)
        }
        pending[log] = nil
        flushing.remove(log)
    }

    private func commit(_ batch: [Waiter], log: String) async {
        let keyed = batch.filter { $0.idempotencyKey != nil }
        if !keyed.isEmpty { await commitEach(keyed, log: log) }
        let unkeyed = batch.filter { $0.idempotencyKey == nil }
        if !unkeyed.isEmpty { await commitShared(unkeyed, log: log) }
    }

    /// Requests with keys: one transaction, a savepoint each.
    private func commitEach(_ batch: [Waiter], log: String) async {
        do {
            let answers = try await store.appendEach(log: log, requests: batch.map { ($0.event, $0.idempotencyKey!) })
            for (waiter, answer) in zip(batch, answers) { waiter.continuation.resume(with: answer) }
        } catch {
            for waiter in batch { waiter.continuation.resume(throwing: error) }
        }
    }

    /// Requests without keys: one shared batch, or each alone when it is refused.
    private func commitShared(_ batch: [Waiter], log: String) async {
        if batch.count > 1 {
            do {
                let result = try await store.append(log: log, events: batch.map(\.event))
                if result.events.count == batch.count, !result.idempotentReplay {
                    for (waiter, appended) in zip(batch, result.events) {
                        waiter.continuation.resume(returning: AppendResult(events: [appended], idempotentReplay: false))
                    }
                    return
                }
            } catch {
                // Refused as a whole: fall through and give each event its own answer.
            }
        }
        for waiter in batch {
            do {
                waiter.continuation.resume(returning: try await store.appendSingle(log: log, event: waiter.event))
            } catch {
                waiter.continuation.resume(throwing: error)
            }
        }
    }
}
