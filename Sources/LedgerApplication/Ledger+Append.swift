import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Appends `events` to `log` as one atomic batch: the way in for the ordinary writers (the
    /// CLI, every HTTP append; forwarded App Store notifications come by
    /// ``recordAppStoreNotification(log:event:)``).
    ///
    /// A single event joins the group commit, which shares one transaction among concurrent single
    /// appends to a log (``AppendMode/grouped``, ``AppendMode/keyed`` when they carry keys) and
    /// answers a retried event (same id, same content, or the same key) as a replay; a batch of
    /// several events is one transaction of its own (``AppendMode/batch``). Each is sealing, the
    /// pool role's append function and the new log's row in one transaction, so a refused batch
    /// leaves nothing behind. These are not the only ways in: ``bulkAppend(log:events:idempotencyKey:)``,
    /// ``erase(log:subject:erasure:)`` and ``applyRetention(log:retention:)`` are modes of their
    /// own (``AppendMode``, decision 0074). One gate holds for all of them: the trigger on
    /// `ledger.events`, which checks every hash and column of every row.
    ///
    /// - Parameter idempotencyKey: a batch retried with the same key returns the original
    ///   positions and writes nothing; nil uses the batch's SHA-256 (decision 0004).
    ///
    /// Only events the ordinary writers may append (``AppendRoute/append``, the catalogue's
    /// ``EventSchema/appenders``, decision 0056): a `SubjectErased` comes from ``erase(log:subject:erasure:)``,
    /// a `RetentionApplied` from ``applyRetention(log:retention:)``, a `ConsentRescinded` recorded
    /// as the App Store from ``recordAppStoreNotification(log:event:)``.
    /// - Throws: `append-not-permitted` (the batch index in ``LedgerError/line``), and nothing is stored.
    public func append(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        try EventCatalogue.checkAppenders(of: events, route: .append)
        return try await store(log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// Records the `ConsentRescinded` the App Store notification route built from a signed
    /// notification it verified (decision 0017): the one way an event recorded as the App Store
    /// (actor `appStore`) comes in (``AppendRoute/appStoreNotification``). Joins the group commit,
    /// where Apple's retry of the same notification is answered as a replay.
    public func recordAppStoreNotification(log: String, event: EventInput) async throws -> AppendResult {
        try EventCatalogue.checkAppenders(of: [event], route: .appStoreNotification)
        return try await store(log: log, events: [event], idempotencyKey: nil)
    }

    /// Stores events a route has admitted: a single one through the group commit, a batch in a
    /// transaction of its own (``AppendMode/batch``).
    private func store(log: String, events: [EventInput], idempotencyKey: String?) async throws -> AppendResult {
        if events.count == 1 {
            return try await groupCommit.append(log: log, event: events[0], idempotencyKey: idempotencyKey)
        }
        return try await EventStore(pool: pools.application, logger: logger).append(log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// Appends `events` to `log` as one atomic batch through `COPY`, as the owner
    /// (``AppendMode/bulk``), for backfills (`consent-ledger append --bulk`, decision 0042). The same guarantees as
    /// ``append(log:events:idempotencyKey:)`` (the catalogue checked in Swift when the inputs were
    /// made, personal data sealed, gapless positions, hashes checked again by the insert trigger,
    /// idempotency under the same keys and digests), at a fraction of its cost per event.
    public func bulkAppend(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        try await EventStore(pool: pools.administrator, logger: logger).appendCopying(log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// Erases `subject` (destroys its key and appends `erasure`, a `SubjectErased` event, in one
    /// transaction), as the owner: only the owner may touch subject keys.
    public func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended {
        try SubjectPseudonym.check(subject)
        let store = EventStore(pool: pools.administrator, logger: logger)
        let appended = try await store.erase(log: log, subject: subject, erasure: erasure)
        await removeDestroyedKeys(store)
        return appended
    }

    /// Vacuums the key table once keys were destroyed (``EventStore/vacuumDestroyedKeys()``). The
    /// erasure has committed by then: a vacuum that fails is logged, and the next one removes
    /// the row versions (autovacuum does too).
    private func removeDestroyedKeys(_ store: EventStore) async {
        do {
            try await store.vacuumDestroyedKeys()
        } catch {
            logger.warning("the destroyed keys' row versions stay in ledger.subject_keys until the next vacuum: \(error)")
        }
    }

    /// Applies the retention policy (records `retention`, a `RetentionApplied` event, and destroys
    /// the keys of the subjects it names when its scope is `subjectKeys`, in one transaction), as
    /// the owner: the one way a `RetentionApplied` is stored.
    public func applyRetention(log: String, retention: EventInput) async throws -> AppendResult.Appended {
        let store = EventStore(pool: pools.administrator, logger: logger)
        let appended = try await store.applyRetention(log: log, retention: retention)
        await removeDestroyedKeys(store)
        return appended
    }
}
