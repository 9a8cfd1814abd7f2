import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Appends `events` to `log` as one atomic batch: the ledger's one way in (the CLI, every
    /// HTTP append and forwarded App Store notifications come here).
    ///
    /// A single event joins the group commit, which shares one transaction among concurrent single
    /// appends to a log (each with its own idempotency key, when it has one) and answers a retried
    /// event (same id, same content, or the same key) as a replay; a batch of several events is one
    /// transaction of its own. Both end in
    /// ``EventStore/append(log:events:idempotencyKey:)``: sealing, `ledger.append_events` and the
    /// new log's row in one transaction, so a refused batch leaves nothing behind.
    ///
    /// - Parameter idempotencyKey: a batch retried with the same key returns the original
    ///   positions and writes nothing; nil uses the batch's SHA-256 (decision 0004).
    public func append(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        if events.count == 1 {
            return try await groupCommit.append(log: log, event: events[0], idempotencyKey: idempotencyKey)
        }
        return try await EventStore(pool: pools.application, logger: logger).append(log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// Appends `events` to `log` as one atomic batch through `COPY`, as the owner: the bulk path
    /// for backfills (`consent-ledger append --bulk`, decision 0042). The same guarantees as
    /// ``append(log:events:idempotencyKey:)`` (the catalogue checked in Swift when the inputs were
    /// made, personal data sealed, gapless positions, hashes checked again by the insert trigger,
    /// idempotency under the same keys and digests), at a fraction of its cost per event.
    public func bulkAppend(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        try await EventStore(pool: pools.administrator, logger: logger).appendCopying(log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// Erases `subject` (destroys its key and appends `erasure`, a `SubjectErased` event, in one
    /// transaction), as the owner: only the owner may touch subject keys.
    public func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended {
        try await EventStore(pool: pools.administrator, logger: logger).erase(log: log, subject: subject, erasure: erasure)
    }
}
