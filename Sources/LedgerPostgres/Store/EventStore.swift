import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The ledger's events in PostgreSQL: append a batch, read a log or a stream, read a head.
///
/// Appends come in by the named ``AppendMode``s (one batch, one event, the group commit's shared
/// and keyed calls, the bulk load, the owner's erasure and retention). Those that call an append
/// function call the pool role's ``AppendFunction`` (`ledger.append_checked_events` or
/// `ledger.append_events`), which locks the log's head, checks expected versions and
/// idempotency, assigns gapless positions and builds, hashes and chains each record. One gate for
/// every mode: the statement trigger on `ledger.events` checks every hash and column again. One
/// call is one transaction (sealing personal data included): the batch is stored whole or not at all.
///
/// ```swift
/// let store = EventStore(pool: pool)
/// let result = try await store.append(log: "acme", events: inputs, idempotencyKey: "import-2026-11-22")
/// try await store.read(log: "acme", after: 0, limit: 100) { event in print(event.position) }
/// ```
public struct EventStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// Creates a store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.store")) {
        self.pool = pool
        self.logger = logger
    }

    /// Appends `events` to `log` as one atomic batch: ``AppendMode/batch`` (the CLI, the HTTP
    /// API's batches, and the group commit's lone keyed request).
    ///
    /// One transaction holds everything the batch writes: the keys of subjects seen for the first
    /// time (and the log's row, when the log is new), the personal-data fields sealed under them,
    /// and `ledger.append_events`. A refused batch leaves nothing behind, not even an empty log.
    ///
    /// - Parameter idempotencyKey: a batch retried with the same key returns the original
    ///   positions and writes nothing. `nil` uses the SHA-256 of the batch's canonical (sealed)
    ///   events, so that sending the very same batch twice never stores it twice.
    /// - Throws: ``LedgerError`` (`wrong-expected-version`, `duplicate-event-id`,
    ///   `idempotency-key-reused`, `invalid-field`, `invalid-log-id`, …). A batch-level error
    ///   names the batch index (1-based) in ``LedgerError/line``; the caller maps it to its input line.
    public func append(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> AppendResult {
        guard !events.isEmpty else {
            throw LedgerError(.invalidRequest, "the batch is empty", hint: "Send at least one event.")
        }
        return try await append(.batch, log: log, events: events, idempotencyKey: idempotencyKey)
    }

    /// `events` in one transaction of their own, in `mode` (``AppendMode/batch``, or
    /// ``AppendMode/keyed`` with `eventKeys`).
    func append(_ mode: AppendMode, log: String, events: [EventInput], idempotencyKey: String?,
                eventKeys: [String]? = nil) async throws -> AppendResult {
        let logger = self.logger
        let functions = pool.appendFunctions
        return try await pool.transaction { connection in
            try await Self.append(log: log, events: events, idempotencyKey: idempotencyKey, eventKeys: eventKeys, as: mode,
                                  function: try await functions.function(on: connection, logger: logger), on: connection, logger: logger)
        }
    }

    /// The append itself, on a connection inside a transaction the caller owns (the group
    /// commit's shared transaction), for a route in `mode`, through the pool role's
    /// ``AppendFunction``: `ledger.append_checked_events` with the columns read here from the
    /// checked events, or `ledger.append_events`, which checks the catalogue again (decision 0072).
    /// - Parameter eventKeys: one idempotency key per event instead of one for the batch: each
    ///   event is recorded as if appended alone under its key (``AppendMode/keyed``).
    static func append(log: String, events: [EventInput], idempotencyKey: String?, eventKeys: [String]? = nil, as mode: AppendMode,
                       function: AppendFunction, on connection: PostgresConnection, logger: Logger) async throws -> AppendResult {
        mode.trace(logger, events: events.count, function: function)
        let events = try await sealPersonalData(log: log, events: events, on: connection, logger: logger)
        let bodies = events.map(\.canonicalText)
        let expected = events.map(\.expectedVersion.sqlText)
        switch function {
        case .catalogueInSQL:
            let key = eventKeys == nil ? (idempotencyKey ?? defaultIdempotencyKey(for: events)) : nil
            let rows = try await connection.watchedQuery(
                "SELECT position, event_id, stream, stream_version, idempotent_replay FROM ledger.append_events(\(log), \(bodies), \(expected), \(key), \(eventKeys))",
                logger: logger)
            return try await appendResult(of: rows)
        case .checked:
            let digest = batchDigest(of: events)
            let key = eventKeys == nil ? (idempotencyKey ?? defaultIdempotencyKey(digest: digest)) : nil
            let envelopes = events.map(\.envelope)
            let rows = try await connection.watchedQuery("""
                SELECT position, stream_version, idempotent_replay FROM ledger.append_checked_events(
                  \(log), \(bodies), \(envelopes.map(\.eventId))::uuid[], \(envelopes.map(\.stream)), \(envelopes.map(\.type)),
                  \(envelopes.map(\.schemaVersion))::integer[], \(envelopes.map(\.occurredAt))::timestamptz[],
                  \(NullableTextArray(envelopes.map(\.subject))), \(envelopes.map(\.actor.kind)), \(NullableTextArray(envelopes.map(\.actor.id))),
                  \(NullableTextArray(envelopes.map(\.correlationId))), \(NullableTextArray(envelopes.map(\.causationId))), \(expected), \(key), \(key == nil ? nil : ByteBuffer(bytes: digest)), \(eventKeys))
                """, logger: logger)
            var appended: [AppendResult.Appended] = []
            var replay = false
            appended.reserveCapacity(events.count)
            for try await (position, version, isReplay) in rows.decode((Int64, Int64, Bool).self) {
                let envelope = envelopes[appended.count]
                appended.append(.init(position: position, eventId: envelope.eventId, stream: envelope.stream, streamVersion: version))
                replay = isReplay
            }
            return AppendResult(events: appended, idempotentReplay: replay)
        }
    }

    /// The rows `ledger.append_events` returns (and the owner's operations that append through it:
    /// `ledger.erase_subject`, `ledger.apply_retention`), as an ``AppendResult``.
    static func appendResult(of rows: PostgresRowSequence) async throws -> AppendResult {
        var appended: [AppendResult.Appended] = []
        var replay = false
        for try await (position, eventId, stream, version, isReplay) in rows.decode((Int64, UUID, String, Int64, Bool).self) {
            appended.append(.init(position: position, eventId: eventId.uuidString.lowercased(), stream: stream, streamVersion: version))
            replay = isReplay
        }
        return AppendResult(events: appended, idempotentReplay: replay)
    }

    /// `sha256:<hex>` of the batch's canonical events, one per line: the key used when the caller
    /// gives none.
    public static func defaultIdempotencyKey(for events: [EventInput]) -> String {
        defaultIdempotencyKey(digest: batchDigest(of: events))
    }

    /// The default key of a batch whose ``batchDigest(of:)`` is `digest`.
    static func defaultIdempotencyKey(digest: [UInt8]) -> String { "sha256:" + LedgerHash.hex(digest) }

    /// `sha256` of the batch's canonical events, one per line: the digest `ledger.append_events`
    /// stores with a batch's idempotency key, and the default key's hash.
    static func batchDigest(of events: [EventInput]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(0x0A) }
            bytes += event.canonicalBytes
        }
        return LedgerHash.sha256(bytes)
    }

    /// The head of `log`, or nil when there is no such log.
    public func head(log: String) async throws -> LogHead? {
        let rows = try await pool.query(
            "SELECT log_id, head_position, head_chain_hash, created_at FROM ledger.logs WHERE log_id = \(log)", logger: logger)
        for try await (id, position, chain, created) in rows.decode((String, Int64, Data, Date).self) {
            return LogHead(log: id, position: position, chainHash: Array(chain), createdAt: created)
        }
        return nil
    }

    /// The last position of `log` recorded at or before `time` (the ledger's clock): what a report
    /// "as of" that moment is computed at.
    /// - Throws: `log-not-found`; `invalid-request` when nothing was recorded by then, naming the
    ///   time the first event was recorded.
    public func position(log: String, recordedBy time: Date) async throws -> Int64 {
        _ = try await requireHead(log: log)
        let rows = try await pool.query("""
            SELECT (SELECT max(position) FROM ledger.events WHERE log_id = \(log) AND recorded_at <= \(time)),
                   (SELECT to_char(min(recorded_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM ledger.events WHERE log_id = \(log))
            """, logger: logger)
        for try await (position, first) in rows.decode((Int64?, String?).self) {
            if let position { return position }
            throw LedgerError(.invalidRequest, "nothing of log \(log) was recorded by \(ISO8601DateFormatter().string(from: time)) (the ledger's clock)",
                              hint: first.map { "Its first event was recorded at \($0); give a later time, or a position." }
                                  ?? "The log has no events yet.")
        }
        throw LedgerError(.invalidRequest, "log \(log) has no events yet")
    }

    /// Every log's head, by log id.
    public func logs() async throws -> [LogHead] {
        let rows = try await pool.query(
            "SELECT log_id, head_position, head_chain_hash, created_at FROM ledger.logs ORDER BY log_id", logger: logger)
        var heads: [LogHead] = []
        for try await (id, position, chain, created) in rows.decode((String, Int64, Data, Date).self) {
            heads.append(LogHead(log: id, position: position, chainHash: Array(chain), createdAt: created))
        }
        return heads
    }

    /// The head of `log`, or a `log-not-found` error listing the logs there are.
    public func requireHead(log: String) async throws -> LogHead {
        if let head = try await head(log: log) { return head }
        let known = try await logs().map(\.log)
        throw LedgerError(.logNotFound, "there is no log named \(log)",
                          hint: known.isEmpty ? "The database has no logs yet; append to create one."
                                              : "Logs here: \(known.joined(separator: ", ")).")
    }

    /// Streams the events of `log` after position `after`, in position order, to `body`, at most
    /// `limit` of them, only stream `stream` when given, none past `through` (the head when the
    /// read began, so that a read of many pages is one moment's log). Read in pages of
    /// ``readPage``, each on a connection leased only while it is read: `body` runs with no
    /// connection held, so a slow consumer keeps none from other requests, and memory stays
    /// bounded however long the log (decision 0055).
    public func read(log: String, after: Int64 = 0, limit: Int64? = nil, stream: String? = nil, through: Int64? = nil,
                     _ body: (StoredEvent) async throws -> Void) async throws {
        var left = limit ?? Int64.max
        var last: (position: Int64, streamVersion: Int64) = (after, 0)
        let through = through ?? Int64.max
        while left > 0 {
            let page = min(left, Self.readPage)
            // Keyset on the order of the index each read walks: the stream's versions, the log's positions.
            let query: PostgresQuery = stream.map { stream in """
                SELECT \(unescaped: Self.columns) FROM ledger.events
                 WHERE log_id = \(log) AND stream = \(stream) AND stream_version > \(last.streamVersion)
                   AND position > \(after) AND position <= \(through)
                 ORDER BY stream_version LIMIT \(page)
                """ } ?? """
                SELECT \(unescaped: Self.columns) FROM ledger.events
                 WHERE log_id = \(log) AND position > \(last.position) AND position <= \(through)
                 ORDER BY position LIMIT \(page)
                """
            // The page is read whole and its connection given back before `body` sees any of it.
            var events: [StoredEvent] = []
            for try await row in try await pool.query(query, logger: logger) { events.append(try Self.decode(row)) }
            for event in events { try await body(event) }
            guard let final = events.last, events.count == page else { return }
            last = (final.position, final.streamVersion)
            left -= page
        }
    }

    /// The most records ``read(log:after:limit:stream:through:_:)`` holds in memory at once (about
    /// 1 MB): each page is read on a connection of its own, given back before the page is handed on.
    static let readPage: Int64 = 1_000

    static let columns = """
        log_id, position, event_id::text, stream, stream_version, type,
        to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), record, leaf_hash, chain_hash
        """

    /// The event of a row whose first columns are ``columns`` (a query may add more after them).
    static func decode(_ row: PostgresRow) throws -> StoredEvent {
        let cells = row.makeRandomAccess()
        return StoredEvent(log: try cells[0].decode(String.self), position: try cells[1].decode(Int64.self),
                           eventId: try cells[2].decode(String.self), stream: try cells[3].decode(String.self),
                           streamVersion: try cells[4].decode(Int64.self), type: try cells[5].decode(String.self),
                           recordedAt: try cells[6].decode(String.self), record: Array(buffer: try cells[7].decode(ByteBuffer.self)),
                           leafHash: Array(buffer: try cells[8].decode(ByteBuffer.self)),
                           chainHash: Array(buffer: try cells[9].decode(ByteBuffer.self)))
    }
}
