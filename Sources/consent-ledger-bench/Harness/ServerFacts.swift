import Logging
import PostgresNIO

/// What the figures depend on besides the SQL: the server's version and memory settings, and the
/// size of `ledger.events` once loaded.
struct ServerFacts: Sendable {
    /// `server_version`, `shared_buffers`, `work_mem`, `temp_buffers`, `max_wal_size`.
    var version = "?"
    var sharedBuffers = "?"
    var workMem = "?"
    var tempBuffers = "?"
    var maxWalSize = "?"
    /// `pg_relation_size` and `pg_indexes_size` of `ledger.events`, in bytes.
    var eventsHeapBytes: Int64 = 0
    var eventsIndexBytes: Int64 = 0

    /// Reads the settings and the table's size.
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> ServerFacts {
        var facts = ServerFacts()
        let settings = try await BenchSQL.texts("""
            SELECT unnest(ARRAY[current_setting('server_version'), current_setting('shared_buffers'),
                                current_setting('work_mem'), current_setting('temp_buffers'), current_setting('max_wal_size')])
            """, on: connection, logger: logger)
        if settings.count == 5 {
            (facts.version, facts.sharedBuffers, facts.workMem, facts.tempBuffers, facts.maxWalSize)
                = (settings[0], settings[1], settings[2], settings[3], settings[4])
        }
        facts.eventsHeapBytes = try await BenchSQL.integer("SELECT pg_relation_size('ledger.events')", on: connection, logger: logger)
        facts.eventsIndexBytes = try await BenchSQL.integer("SELECT pg_indexes_size('ledger.events')", on: connection, logger: logger)
        return facts
    }

    /// Sets hint bits and the visibility map (`VACUUM`), refreshes the planner's statistics and
    /// writes out dirty buffers, so that no measurement pays for the load's leftovers.
    static func settle(on connection: PostgresConnection, logger: Logger) async throws {
        try await BenchSQL.execute("VACUUM (ANALYZE) ledger.events", on: connection, logger: logger)
        try await BenchSQL.execute("CHECKPOINT", on: connection, logger: logger)
    }
}
