import LedgerCore

/// Group commit: concurrent single-event appends to one log share one transaction, so that many
/// apps posting one event each are not limited to one commit (and one WAL flush) per event.
///
/// A request for a log starts a flush when fewer than `maxInFlight` are running for that log (one
/// by default); requests arriving while they commit wait and go in the next one, up to `maxBatch`
/// at a time (``CommitQueue``). With two in flight, one batch is parsed and checked by the
/// database while the other holds the log's head and commits (`ledger.append_events` checks
/// before it locks the head), and positions stay gapless because the head lock orders them;
/// measured, that made groups smaller and cost more CPU per event for no more throughput, so one
/// is the default (decision 0041). Each request is answered only after the transaction holding
/// its event has committed.
///
/// Which ``AppendMode`` each request of a batch goes in, what is tried again when the database
/// refuses a shared call, and how a lost database fails them all at once is
/// ``GroupCommitBatch``'s, which has no database of its own: here, its calls are the store's.
public actor GroupCommit {
    private struct Waiter {
        let request: AppendRequest
        let continuation: CheckedContinuation<AppendResult, any Error>
    }

    private let store: GroupCommitBatch.Store
    private var queue: CommitQueue<Waiter>

    /// A group commit over `store`, at most `maxBatch` events per shared transaction and at most
    /// `maxInFlight` transactions under way per log.
    public init(store: EventStore, maxBatch: Int = 500, maxInFlight: Int = 1) {
        self.init(maxBatch: maxBatch, maxInFlight: maxInFlight) { mode, log, requests in
            try await store.groupCommitCall(mode, log: log, requests: requests)
        }
    }

    /// A group commit whose calls are `store`'s (a test's, in place of the database).
    init(maxBatch: Int = 500, maxInFlight: Int = 1, store: @escaping GroupCommitBatch.Store) {
        self.store = store
        self.queue = CommitQueue(maxBatch: maxBatch, maxInFlight: maxInFlight)
    }

    /// Appends `event` to `log`, possibly with others; returns once it is committed.
    /// - Parameter idempotencyKey: the request's key: a retry with it returns the original position
    ///   and writes nothing, as it would alone.
    public func append(log: String, event: EventInput, idempotencyKey: String? = nil) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            queue.add(Waiter(request: AppendRequest(event: event, idempotencyKey: idempotencyKey), continuation: continuation), log: log)
            startFlush(log: log)
        }
    }

    /// How many requests for `log` wait for the next transaction.
    func waiting(log: String) -> Int { queue.waiting(log: log) }

    /// Takes what is pending for `log` into a new transaction, when one may start.
    private func startFlush(log: String) {
        guard let batch = queue.cut(log: log) else { return }
        Task { await self.flush(batch, log: log) }
    }

    /// Commits `batch`, then starts the next one if requests queued meanwhile.
    private func flush(_ batch: [Waiter], log: String) async {
        // The actor is free while this awaits: new requests queue up for the next batch.
        await GroupCommitBatch.commit(batch.map(\.request), log: log, store: store) { index, answer in
            batch[index].continuation.resume(with: answer)
        }
        queue.finish(log: log)
        startFlush(log: log)
    }
}
