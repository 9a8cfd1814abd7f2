import LedgerCore
import Logging
import PostgresNIO

/// Recomputes every hash and link of a log, streaming it in position order in constant memory,
/// and names the first bad position (see ``ChainVerifier`` for what is checked). Beside that
/// stream, on a second connection, the database compares every event's columns with its record
/// (`ledger.first_column_problem`, the rule the insert trigger applies too), so what projections,
/// replay and reports read from the columns is what was hashed; the earlier of the two problems
/// is reported.
public struct LogVerifier: Sendable {
    /// The outcome of a verification.
    public struct Report: Sendable, Equatable {
        /// The log.
        public var log: String
        /// How many events checked out (those before the first problem, when there is one).
        public var verifiedCount: Int64
        /// The head the log's row claims.
        public var headPosition: Int64
        /// The chain hash of the last verified event.
        public var lastChainHash: [UInt8]
        /// Valid records that are not RFC 8785 canonical (appended by a non-canonicalizing client).
        public var nonCanonicalCount: Int64
        /// The first problem, or nil when everything checks.
        public var problem: IntegrityProblem?
        /// True when every hash and link checks.
        public var passed: Bool { problem == nil }
    }

    /// The store to read through.
    public let store: EventStore

    /// Creates a verifier.
    public init(store: EventStore) { self.store = store }

    /// Verifies `log` from position 1 to its head; `progress` is called every `progressEvery` events.
    /// The events and the head are read in one statement, so in one snapshot: an append that
    /// commits while verify runs is in neither, and a head that does not match the newest event is
    /// a real problem, never a race.
    public func verify(log: String, progressEvery: Int64 = 100_000,
                       progress: (Int64, Int64) -> Void = { _, _ in }) async throws -> Report {
        var head = try await store.requireHead(log: log)
        async let columnProblem = Self.firstColumnProblem(log: log, store: store)
        var verifier = ChainVerifier(log: log)
        var problem: IntegrityProblem?
        let query: PostgresQuery = """
            SELECT \(unescaped: EventStore.columns), h.head_position, h.head_chain_hash
              FROM ledger.events
             CROSS JOIN (SELECT head_position, head_chain_hash FROM ledger.logs WHERE log_id = \(log)) h
             WHERE log_id = \(log) ORDER BY position
            """
        do {
            var first = true
            try await store.pool.forEachRow(query, logger: store.logger) { row in
                if first {
                    // The head as of this statement's snapshot (the one read before may be older).
                    let cells = row.makeRandomAccess()
                    head.position = try cells[10].decode(Int64.self)
                    head.chainHash = Array(buffer: try cells[11].decode(ByteBuffer.self))
                    first = false
                }
                if let found = verifier.check(try EventStore.decode(row)) {
                    problem = found
                    throw StopReading()
                }
                if verifier.verifiedCount % progressEvery == 0 { progress(verifier.verifiedCount, head.position) }
            }
        } catch is StopReading {}
        var verifiedCount = verifier.verifiedCount
        if let found = try await columnProblem, found.position < problem?.position ?? Int64.max {
            problem = found
            verifiedCount = min(verifiedCount, found.position - 1)
        }
        if problem == nil { problem = verifier.checkHead(position: head.position, chainHash: head.chainHash) }
        return Report(log: log, verifiedCount: verifiedCount, headPosition: head.position,
                      lastChainHash: verifier.lastChainHash, nonCanonicalCount: verifier.nonCanonicalCount, problem: problem)
    }

    /// The first event whose columns disagree with its record (or whose record PostgreSQL cannot
    /// read), as the database finds it in one set-based pass.
    static func firstColumnProblem(log: String, store: EventStore) async throws -> IntegrityProblem? {
        let rows = try await store.pool.query(
            "SELECT position, problem FROM ledger.first_column_problem(\(log))", logger: store.logger)
        for try await (position, detail) in rows.decode((Int64, String).self) {
            return IntegrityProblem(position: position, kind: .column, detail: detail)
        }
        return nil
    }

    private struct StopReading: Error {}
}
