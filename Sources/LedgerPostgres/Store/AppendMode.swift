import Logging

/// The ways a batch enters `ledger.events`, named in one place (decision 0074). Every Swift route
/// into ``EventStore`` that appends is one of these modes, and says so: each passes its mode to
/// the store's appends, which log it (`append.mode`).
///
/// The modes differ in who uses them, which database function stores the events and what each
/// answers; they do not differ in what is stored. **One gate**: whatever the mode, every row
/// reaches `ledger.events` through its statement trigger `ledger.check_appended_events`, which
/// checks every position, hash and column against the record and moves the log's head. Inside
/// the database, every mode locks the head with `ledger.lock_head`, answers a replayed key with
/// `ledger.replayed_batch`, words a failed condition with `ledger.raise_wrong_expected_version`
/// and records idempotency with `ledger.record_batches`.
///
/// The modes that call an append function call the pool role's ``AppendFunction`` (decision
/// 0072): `ledger.append_checked_events` for the ledger's own writer, `ledger.append_events` for
/// any other role.
public enum AppendMode: String, Sendable, CaseIterable {
    /// One batch, one transaction, one idempotency key (the caller's, or the SHA-256 of the
    /// batch): ``EventStore/append(log:events:idempotencyKey:)``. Used by `Ledger.append` for a
    /// batch of several events (the CLI's `append`, `POST …/events` with more than one event) and
    /// by the group commit for a request with an `Idempotency-Key` that came alone. Through the
    /// role's ``AppendFunction``. Guarantees: the batch is stored whole or not at all, keys and
    /// personal data sealed in the same transaction; the same key again answers the original
    /// positions and writes nothing.
    case batch
    /// One event without a key: ``EventStore/appendSingle(log:event:)``. Used by the group commit
    /// for a request that came alone, and for each event of a ``grouped`` batch the database
    /// refused. A ``batch`` of one, except that an event whose id is stored with exactly this
    /// content (a client retrying an answer it lost) is answered as a replay, not refused.
    case single
    /// Concurrent single events without a key, to one log, in one call of the role's
    /// ``AppendFunction`` (decision 0041). Used by the group commit. Guarantees: all are stored
    /// together or none; when the call is refused (one event's fault), each is appended again
    /// as ``single``, so no event fails for another's fault; when the database is lost, every
    /// request fails with that error at once.
    case grouped
    /// Concurrent single events that each carry an `Idempotency-Key`, to one log, in one call of
    /// the role's ``AppendFunction`` with one key per event:
    /// ``EventStore/appendKeyedTogether(log:requests:)``. Used by the group commit. Each event is
    /// recorded as if it had come alone under its key; when the call is refused (a retried key
    /// among them, a bad event), the requests go on as ``keyedEach``.
    case keyed
    /// Keyed requests each in a savepoint of one shared transaction:
    /// ``EventStore/appendEach(log:requests:)``, the group commit's fallback for a refused
    /// ``keyed`` call. Each request is answered exactly as alone (a retry with its original
    /// positions, its own refusal), with one commit for all; a failure of the transaction itself
    /// fails them all.
    case keyedEach = "keyed-each"
    /// A backfill, as the owner, through `COPY` into `ledger.events`:
    /// ``EventStore/appendCopying(log:events:idempotencyKey:)`` (`consent-ledger append --bulk`,
    /// decision 0042). The records are numbered, built and hashed in Swift; the head lock, the
    /// replay check, the stream versions, the duplicate-id and wrong-version refusals and the
    /// batch's record are the database's shared helpers. Guarantees those of ``batch``.
    case bulk
    /// The owner's erasure: ``EventStore/erase(log:subject:erasure:)`` through
    /// `ledger.erase_subject`, which destroys the subject's key and appends the `SubjectErased`
    /// through `ledger.append_events_through` in one transaction (decision 0056).
    case erasure
    /// The owner's retention run: ``EventStore/applyRetention(log:retention:)`` through
    /// `ledger.apply_retention`, which appends the `RetentionApplied` through
    /// `ledger.append_events_through` and destroys the keys it names (decision 0056).
    case retention
}

extension AppendMode {
    /// Logs (at trace level) that `events` events enter the store in this mode, through
    /// `function` when the mode calls an append function.
    func trace(_ logger: Logger, events: Int, function: AppendFunction? = nil) {
        logger.trace("append", metadata: ["append.mode": "\(rawValue)", "append.function": "\(function?.sqlName ?? "-")",
                                          "append.events": "\(events)"])
    }
}
