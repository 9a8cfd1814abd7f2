import Foundation
import LedgerCore
import Logging
import NIOCore
import PostgresNIO

extension EventStore {
    /// Appends `events` to `log` as one atomic batch through `COPY`, as the owner:
    /// ``AppendMode/bulk``, for backfills with `consent-ledger append --bulk` (decision 0042).
    ///
    /// The events were checked against the catalogue when they became ``EventInput``s (the Swift
    /// catalogue, from which the database's checks are generated). Here, in one transaction:
    /// personal data is sealed as ``append(log:events:idempotencyKey:)`` seals it; a batch whose
    /// idempotency key is stored is answered as a replay; the log's head is locked; stream
    /// versions and expected versions are settled; records are built and hashed here and copied
    /// into `ledger.events`, where the statement trigger checks every position, hash and column
    /// again and moves the head; the batch's key is recorded. Every statement but the copy is one
    /// of the database's helpers that the append functions use too (`ledger.check_log_id`,
    /// `ledger.replayed_batch`, `ledger.lock_head`, `ledger.record_time`,
    /// `ledger.raise_duplicate_event_id`, `ledger.stream_versions`,
    /// `ledger.raise_wrong_expected_version`, `ledger.record_batch`), so a refusal reads the same
    /// whatever the mode. Nothing of a refused batch stays.
    ///
    /// - Parameter idempotencyKey: as for ``append(log:events:idempotencyKey:)``: `nil` uses the
    ///   SHA-256 of the batch's sealed canonical events, so running the same load again stores
    ///   nothing twice.
    /// - Throws: ``LedgerError``: `wrong-expected-version`, `duplicate-event-id`,
    ///   `idempotency-key-reused`, `invalid-log-id`, `subject-erased`, `append-not-permitted` (an
    ///   event only another route may append: COPY passes by `ledger.append_events`, so the rule is
    ///   checked here, from the same catalogue; decision 0056); a batch-level error names the batch
    ///   index (1-based) in ``LedgerError/line``.
    public func appendCopying(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        guard !events.isEmpty else {
            throw LedgerError(.invalidRequest, "the batch is empty", hint: "Send at least one event.")
        }
        try EventCatalogue.checkAppenders(of: events, route: .append)
        let logger = self.logger
        AppendMode.bulk.trace(logger, events: events.count)
        return try await pool.transaction { connection in
            try await Self.appendCopying(log: log, events: events, idempotencyKey: idempotencyKey, on: connection, logger: logger)
        }
    }

    private static func appendCopying(log: String, events: [EventInput], idempotencyKey: String?,
                                      on connection: PostgresConnection, logger: Logger) async throws -> AppendResult {
        try await refuseWithoutInsertRight(on: connection, logger: logger)
        try await perform("SELECT ledger.check_log_id(\(log))", on: connection, logger: logger)
        let events = try await sealPersonalData(log: log, events: events, on: connection, logger: logger)
        let digestBytes = batchDigest(of: events)
        let key = idempotencyKey ?? defaultIdempotencyKey(digest: digestBytes)
        let digest = ByteBuffer(bytes: digestBytes)

        if let replay = try await replayedBatch(log: log, key: key, digest: digest, on: connection, logger: logger) { return replay }
        let head = try await lockHead(log: log, on: connection, logger: logger)
        if let replay = try await replayedBatch(log: log, key: key, digest: digest, on: connection, logger: logger) { return replay }

        try await refuseStoredEventIds(log: log, events: events, on: connection, logger: logger)
        let streamVersions = try await currentStreamVersions(log: log, streams: Set(events.map(\.envelope.stream)),
                                                             on: connection, logger: logger)
        let rows: CopiedRows
        do throws(CopiedRows.WrongExpectedVersion) {
            rows = try CopiedRows(log: log, events: events, head: head, streamVersions: streamVersions, idempotencyKey: key)
        } catch {
            // Raised by the database, in the words every mode gives (CL001).
            try await perform("""
                SELECT ledger.raise_wrong_expected_version(\(error.ordinal), \(error.stream), \(error.expected), \(error.version))
                """, on: connection, logger: logger)
            throw LedgerError(.databaseError, "ledger.raise_wrong_expected_version did not refuse event \(error.ordinal)")
        }
        // PostgresNIO quotes the table name as one identifier: name it through the search path
        // (pg_temp last, so that no temporary table of the session can stand in for it).
        try await connection.watchedQuery("SET LOCAL search_path = ledger, pg_catalog, pg_temp", logger: logger)
        try await connection.copyFrom(table: "events", columns: CopiedRows.columns, logger: logger) { writer in
            for chunk in rows.chunks { try await writer.write(chunk) }
        }
        try await perform("""
            SELECT ledger.record_batch(\(log), \(key), \(head.position + 1), \(Int64(events.count)), \(digest), \(head.recordedAt)::timestamptz)
            """, on: connection, logger: logger)
        return AppendResult(events: rows.appended, idempotentReplay: false)
    }

    /// Runs `query`, a call of a helper that returns nothing, and reads its answer to the end: a
    /// function's error comes after the row description, so a query whose rows are not read would
    /// leave the error unseen and the transaction aborted (its COMMIT then rolls back).
    private static func perform(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws {
        for try await _ in try await connection.watchedQuery(query, logger: logger) {}
    }

    /// Refuses a role that may not insert into `ledger.events` (the application role may only call
    /// `ledger.append_events`), before anything is done, with what to do instead.
    private static func refuseWithoutInsertRight(on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.watchedQuery(
            "SELECT current_user::text, has_table_privilege('ledger.events', 'INSERT')", logger: logger)
        for try await (user, allowed) in rows.decode((String, Bool).self) where !allowed {
            throw LedgerError(.invalidRequest,
                              "a bulk load copies into ledger.events, which needs the owner's rights, and database user \(user) has not them",
                              hint: "Connect as the ledger's owner (the embedded database does this itself), or leave out --bulk "
                                  + "to append through ledger.append_events.")
        }
    }

    /// The original answer to a batch stored under `key` with this digest, nil when the key is
    /// new in the log; `idempotency-key-reused` when it was used for other events.
    private static func replayedBatch(log: String, key: String, digest: ByteBuffer, on connection: PostgresConnection,
                                      logger: Logger) async throws -> AppendResult? {
        let rows = try await connection.watchedQuery(
            "SELECT position, event_id, stream, stream_version FROM ledger.replayed_batch(\(log), \(key), \(digest))", logger: logger)
        var appended: [AppendResult.Appended] = []
        for try await (position, eventId, stream, version) in rows.decode((Int64, UUID, String, Int64).self) {
            appended.append(.init(position: position, eventId: eventId.uuidString.lowercased(), stream: stream, streamVersion: version))
        }
        return appended.isEmpty ? nil : AppendResult(events: appended, idempotentReplay: true)
    }

    /// The log's head, locked until the transaction ends (`ledger.lock_head`, as both append
    /// functions lock it; the log is created when new), and the ledger's clock now (the
    /// `recordedAt` of the batch, in the record's form: `ledger.record_time`).
    private static func lockHead(log: String, on connection: PostgresConnection, logger: Logger) async throws -> LockedHead {
        let rows = try await connection.watchedQuery("""
            SELECT h.head_position, h.head_chain_hash, ledger.record_time(clock_timestamp())
              FROM ledger.lock_head(\(log)) h
            """, logger: logger)
        for try await (position, chain, recordedAt) in rows.decode((Int64, ByteBuffer, String).self) {
            return LockedHead(position: position, chainHash: Array(buffer: chain), recordedAt: recordedAt)
        }
        throw LedgerError(.databaseError, "log \(log) has no head row after it was created")
    }

    /// Refuses the batch when an event id appears twice in it or is already stored in the log
    /// (`ledger.raise_duplicate_event_id`, CL003, naming the first such event): asked before the
    /// copy, because the unique index `events_event_id` would refuse the copy without naming it.
    private static func refuseStoredEventIds(log: String, events: [EventInput], on connection: PostgresConnection,
                                             logger: Logger) async throws {
        try await perform("SELECT ledger.raise_duplicate_event_id(\(log), \(events.map(\.envelope.eventId))::uuid[])",
                          on: connection, logger: logger)
    }

    /// Each stream's newest version in the log (0 for a new stream): `ledger.stream_versions`, as
    /// `ledger.append_events` reads them.
    private static func currentStreamVersions(log: String, streams: Set<String>, on connection: PostgresConnection,
                                              logger: Logger) async throws -> [String: Int64] {
        let rows = try await connection.watchedQuery(
            "SELECT stream, version FROM ledger.stream_versions(\(log), \(Array(streams)))", logger: logger)
        var versions: [String: Int64] = [:]
        for try await (stream, version) in rows.decode((String, Int64).self) { versions[stream] = version }
        return versions
    }
}

/// A log's head, locked by the bulk append's transaction.
struct LockedHead {
    /// The newest position (0 for an empty log).
    var position: Int64
    /// Its chain hash (the genesis value for an empty log).
    var chainHash: [UInt8]
    /// The ledger's clock at the lock, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: every record's `recordedAt`.
    var recordedAt: String
}
