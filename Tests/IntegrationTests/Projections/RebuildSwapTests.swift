import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

/// The rebuild's swap against readers of the live tables (found by `tools/faults soak`: a
/// `project rebuild all` beside `serve`'s reports failed with "deadlock detected").
@Suite("Rebuild: the swap gives way to readers")
struct RebuildSwapTests {
    /// A reader holds one live table in an open transaction; the swap waits for it; the reader then
    /// reads the other projection's table. The swap locks the live tables in name order (anomalies,
    /// then subject_state), so a reader holding subject_state meets a swap that holds anomalies:
    /// a deadlock, unless the swap gives way (its lock_timeout under deadlock_timeout) and tries
    /// again. A reader holding anomalies meets a swap that holds nothing yet. Before the swap gave
    /// way, PostgreSQL found the deadlock after a second and failed one of the two.
    @Test("a reader holding one live table and then reading another it needs: both the reader and the rebuild succeed",
          arguments: [("subject_state", "anomalies"), ("anomalies", "subject_state")])
    func readerAndSwap(held: String, readLater: String) async throws {
        let db = try await TestDatabase.create()
        _ = try await ProjectionTestSupport.appendSimulated(db, families: 10, days: 20, seed: 31)
        let projections = try ["subject_state", "anomalies"].map(ProjectionDefinition.named)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        let logger = Logger(label: "test")
        try await db.as(.administrator) { admin async throws in
            try await admin.withConnection { reader in
                _ = try await reader.query("BEGIN", logger: logger)
                _ = try await reader.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(held).checkpoints"), logger: logger).collect()
                let rebuild = Task { try await ProjectionRebuilder(pool: admin).rebuild(projections) }
                // Wait until the swap waits for the reader's table.
                var waiting = false
                for _ in 0..<600 where !waiting {
                    try await Task.sleep(for: .milliseconds(20))
                    waiting = try await admin.int("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'relation'") > 0
                }
                #expect(waiting, "the swap never waited for the reader's lock")
                // The reader now needs a table the swap may hold (or held before it gave way).
                let read = try await reader.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(readLater).checkpoints"), logger: logger).collect()
                #expect(read.count == 1)
                _ = try await reader.query("COMMIT", logger: logger)
                let result = try await rebuild.value
                #expect(result.positions > 0)
            }
        }
    }
}
