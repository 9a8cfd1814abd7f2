import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// A reporting replica (issue 22, item 3; decision 0053): a separate PostgreSQL fed the log's
/// tables by logical replication from the primary, where the projections are folded and the
/// reports, verify, replay and state run, so that they never load the primary. A hot standby
/// cannot serve them: reports and time travel stage into temporary tables, which a standby
/// refuses.
///
/// On the primary, ``publish(pool:logger:)`` creates the publication of the log's tables. On the
/// replica, migrated first, ``subscribe(pool:publisher:logger:)`` subscribes to it: PostgreSQL
/// copies what is there and then streams every commit, in commit order, so the replica always
/// holds a prefix of each log (its events commit in position order) and a report as of a position
/// it holds is the primary's report, byte for byte.
public enum ReportingReplica {
    /// The publication's name on the primary.
    public static let publication = "consent_ledger_log"
    /// The subscription's name on the replica.
    public static let subscription = "consent_ledger_reporting"

    /// The tables replicated: what the log is (its events, head, tree, checkpoints and their
    /// cosignatures, idempotency keys, day counts, and the subject keys, so that an erasure reaches
    /// the replica too). Not the record of reads nor the verifications: each node records the
    /// reads and verifications made against it, in its own chain (a read on the replica is
    /// recorded there; docs/deployment.md). Not the API keys and console sessions (each node has
    /// its own), nor the schema version (each node is migrated by itself), nor the projections
    /// (folded on each node).
    public static let tables = [
        "ledger.logs", "ledger.events", "ledger.event_days", "ledger.batches", "ledger.subject_keys", "ledger.merkle_trees",
        "ledger.merkle_nodes", "ledger.checkpoints", "ledger.checkpoint_cosignatures",
    ]

    /// Creates the publication on the primary, or sets its tables to ``tables`` if it exists.
    /// - Throws: ``LedgerError`` when the primary's `wal_level` is not `logical`.
    public static func publish(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.replica")) async throws {
        let level = try await single(pool, "SHOW wal_level", logger: logger)
        guard level == "logical" else {
            throw LedgerError(.invalidRequest, "the primary's wal_level is \(level ?? "unknown"); logical replication needs logical",
                              hint: "On the primary: ALTER SYSTEM SET wal_level = logical; then restart PostgreSQL (Patroni: "
                                  + "postgresql.parameters.wal_level: logical in the cluster's configuration).")
        }
        let list = tables.joined(separator: ", ")
        let exists = try await single(pool, PostgresQuery(unsafeSQL: "SELECT pubname::text FROM pg_publication WHERE pubname = '\(publication)'"), logger: logger)
        let statement = exists == nil ? "CREATE PUBLICATION \(publication) FOR TABLE \(list)" : "ALTER PUBLICATION \(publication) SET TABLE \(list)"
        _ = try await pool.query(PostgresQuery(unsafeSQL: statement), logger: logger)
    }

    /// Subscribes the replica (migrated, and holding no events of its own) to the primary's
    /// publication, and makes it refuse appends of its own. `publisher` is a libpq connection URL
    /// the replica's server can use to reach the primary (as a role that may replicate).
    /// - Throws: ``LedgerError`` when the replica already has a subscription or events of its own.
    public static func subscribe(pool: LedgerPool, publisher: String, logger: Logger = Logger(label: "consent-ledger.replica")) async throws {
        if try await single(pool, PostgresQuery(unsafeSQL: "SELECT subname::text FROM pg_subscription WHERE subname = '\(subscription)'"), logger: logger) != nil {
            throw LedgerError(.invalidRequest, "this database already subscribes to a primary (\(subscription))",
                              hint: "consent-ledger replica status shows how far it is; to start again: DROP SUBSCRIPTION \(subscription); on a fresh database.")
        }
        if try await single(pool, "SELECT log_id FROM ledger.events LIMIT 1", logger: logger) != nil {
            throw LedgerError(.invalidRequest, "this database holds events of its own; a reporting replica starts empty and takes every event from the primary",
                              hint: "Create a new database for the replica, run consent-ledger migrate on it, then subscribe.")
        }
        // Refuse writes made here to the replicated tables (an append, a checkpoint, an erasure):
        // a local statement fires these triggers; the replication's own apply worker
        // (session_replication_role = replica) does not.
        _ = try await pool.query("""
            CREATE OR REPLACE FUNCTION ledger.reject_append_on_replica() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN
              RAISE EXCEPTION USING ERRCODE = '25006',
                MESSAGE = format('this database is a reporting replica: ledger.%s is written on the primary only, and reaches this replica by replication', TG_TABLE_NAME),
                HINT = 'Append, checkpoint and erase on the primary; the replica receives it within moments (consent-ledger replica status).';
            END
            $fn$
            """, logger: logger)
        for table in tables {
            _ = try await pool.query(PostgresQuery(unsafeSQL: """
                CREATE OR REPLACE TRIGGER reporting_replica_read_only
                  BEFORE INSERT OR UPDATE OR DELETE ON \(table)
                  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_append_on_replica()
                """), logger: logger)
        }
        let escaped = publisher.replacingOccurrences(of: "'", with: "''")
        _ = try await pool.query(PostgresQuery(unsafeSQL: """
            CREATE SUBSCRIPTION \(subscription) CONNECTION '\(escaped)' PUBLICATION \(publication) WITH (copy_data = true)
            """), logger: logger)
    }

    /// How far the replica is: each log's head on the primary and here, and whether every
    /// table's initial copy is done.
    public struct Status: Sendable, Equatable {
        /// One log's head on both sides.
        public struct Log: Sendable, Equatable {
            /// The log.
            public var log: String
            /// Its head on the primary.
            public var primary: Int64
            /// Its head here (0 when the log has not arrived yet).
            public var replica: Int64
        }
        /// Every log of the primary.
        public var logs: [Log]
        /// Tables whose initial copy is not finished.
        public var copying: Int
        /// Whether every table is copied and every log's head is the primary's.
        public var caughtUp: Bool { copying == 0 && logs.allSatisfy { $0.primary == $0.replica } }
    }

    /// The replica's place beside the primary's.
    public static func status(primary: LedgerPool, replica: LedgerPool, logger: Logger = Logger(label: "consent-ledger.replica")) async throws -> Status {
        guard try await single(replica, PostgresQuery(unsafeSQL: "SELECT subname::text FROM pg_subscription WHERE subname = '\(subscription)'"), logger: logger) != nil else {
            throw LedgerError(.invalidRequest, "this database subscribes to no primary",
                              hint: "consent-ledger replica subscribe --publisher URL sets it up (docs/deployment.md).")
        }
        var heads: [String: Int64] = [:]
        for try await (log, head) in try await replica.query("SELECT log_id, head_position FROM ledger.logs", logger: logger).decode((String, Int64).self) {
            heads[log] = head
        }
        var logs: [Status.Log] = []
        for try await (log, head) in try await primary.query("SELECT log_id, head_position FROM ledger.logs ORDER BY log_id", logger: logger).decode((String, Int64).self) {
            logs.append(.init(log: log, primary: head, replica: heads[log] ?? 0))
        }
        let copying = try await single(replica, PostgresQuery(unsafeSQL: """
            SELECT count(*)::text FROM pg_subscription_rel r JOIN pg_subscription s ON s.oid = r.srsubid
             WHERE s.subname = '\(subscription)' AND r.srsubstate <> 'r'
            """), logger: logger)
        return Status(logs: logs, copying: Int(copying ?? "0") ?? 0)
    }

    /// The first column of the first row, as text (nil when there is no row, or it is NULL).
    private static func single(_ pool: LedgerPool, _ query: PostgresQuery, logger: Logger) async throws -> String? {
        for try await value in try await pool.query(query, logger: logger).decode(String?.self) { return value }
        return nil
    }
}
