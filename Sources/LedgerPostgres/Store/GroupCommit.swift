import LedgerCore

/// Group commit: concurrent single-event appends to one log share one transaction, so that many
/// apps posting one event each are not limited to one commit (and one WAL flush) per event.
///
/// A request for a log starts a flush when fewer than `maxInFlight` are running for that log (one
/// by default); requests arriving while they commit wait and go in the next one, up to `maxBatch`
/// at a time. With two in flight, one batch is parsed and checked by the database while the other
/// holds the log's head and commits (`ledger.append_events` checks before it locks the head), and
/// positions stay gapless because the head lock orders them; measured, that made groups smaller and
/// cost more CPU per event for no more throughput, so one is the default (decision 0041). Each
/// request is answered only after the transaction holding its event has committed.
/// - Requests without an idempotency key share one `append_events` call. When that shared batch
///   is refused (one event's expected version, a duplicate id, a subject erased…), nothing of it
///   is stored, and its events are appended one by one (``EventStore/appendSingle(log:event:)``)
///   so that each request gets its own answer and no event is refused for another's fault.
/// - Requests with an `Idempotency-Key` (a retrying mobile client's) share one call too, each
///   event recorded under its own key (``EventStore/appendKeyedTogether(log:requests:)``). When
///   that is refused (a retry of a key already stored, a bad event), each keeps its own call, key
///   and answer, in a savepoint of one shared transaction (``EventStore/appendEach(log:requests:)``).
/// Every path ends in ``EventStore/append(log:events:idempotencyKey:)``.
public actor GroupCommit {
    private struct Waiter {
        let event: EventInput
        let idempotencyKey: String?
        let continuation: CheckedContinuation<AppendResult, any Error>
    }

    private let store: EventStore
    private let maxBatch: Int
    private let maxInFlight: Int
    private var pending: [String: [Waiter]] = [:]
    private var inFlight: [String: Int] = [:]

    /// A group commit over `store`, at most `maxBatch` events per shared transaction and at most
    /// `maxInFlight` transactions under way per log.
    public init(store: EventStore, maxBatch: Int = 500, maxInFlight: Int = 1) {
        precondition(maxBatch > 0 && maxInFlight > 0, "a group commit needs room for one event and one transaction")
        self.store = store
        self.maxBatch = maxBatch
        self.maxInFlight = maxInFlight
    }

    /// Appends `event` to `log`, possibly with others; returns once it is committed.
    /// - Parameter idempotencyKey: the request's key: a retry with it returns the original position
    ///   and writes nothing, as it would alone.
    public func append(log: String, event: EventInput, idempotencyKey: String? = nil) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            pending[log, default: []].append(Waiter(event: event, idempotencyKey: idempotencyKey, continuation: continuation))
            startFlush(log: log)
        }
    }

    /// Takes what is pending for `log` into a new transaction, when one may start.
    private func startFlush(log: String) {
        guard inFlight[log, default: 0] < maxInFlight, let queued = pending[log], !queued.isEmpty else { return }
        let batch = Array(queued.prefix(maxBatch))
        pending[log] = queued.count > batch.count ? Array(queued.dropFirst(batch.count)) : nil
        inFlight[log, default: 0] += 1
        Task { await self.flush(batch, log: log) }
    }

    /// Commits `batch`, then starts the next one if requests queued meanwhile.
    private func flush(_ batch: [Waiter], log: String) async {
        // The actor is free while this awaits: new requests queue up for the next batch.
        await commit(batch, log: log)
        let running = inFlight[log, default: 1] - 1
        inFlight[log] = running > 0 ? running : nil
        startFlush(log: log)
    }

    private func commit(_ batch: [Waiter], log: String) async {
        let keyed = batch.filter { $0.idempotencyKey != nil }
        if !keyed.isEmpty { await commitEach(keyed, log: log) }
        let unkeyed = batch.filter { $0.idempotencyKey == nil }
        if !unkeyed.isEmpty { await commitShared(unkeyed, log: log) }
    }

    /// Requests with keys: one call with a key per event; when that is refused (a retry among them,
    /// a bad event), one transaction with a savepoint each, so each gets its own answer.
    private func commitEach(_ batch: [Waiter], log: String) async {
        if batch.count == 1, let waiter = batch.first {
            // Alone: its own call under its key, no savepoint needed.
            do {
                waiter.continuation.resume(returning: try await store.append(log: log, events: [waiter.event], idempotencyKey: waiter.idempotencyKey))
            } catch {
                waiter.continuation.resume(throwing: error)
            }
            return
        }
        do {
            let answers = try await store.appendKeyedTogether(log: log, requests: batch.map { ($0.event, $0.idempotencyKey!) })
            if answers.count == batch.count {
                for (waiter, answer) in zip(batch, answers) { waiter.continuation.resume(returning: answer) }
                return
            }
        } catch {
            // Refused as a whole: fall through and answer each request alone.
        }
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
