import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// How PostgreSQL's errors come out of the one boundary (`DatabaseErrors`), raised by a real server.
@Suite("Database errors at the boundary")
struct DatabaseErrorsTests {
    /// A full disk (53100) or memory (53200) is the database unable to serve for now: `serve`
    /// answers 503 with Retry-After, not a 500 (tools/faults disk-full found the 500).
    @Test("a full disk or full memory is database-unavailable, with what to do", arguments: ["53100", "53200"])
    func resourcesExhausted(state: String) async throws {
        let db = try await TestDatabase.create()
        let error = await #expect(throws: LedgerError.self) {
            try await db.as(.administrator) { client in
                try await client.query(PostgresQuery(unsafeSQL: "DO $$ BEGIN RAISE EXCEPTION 'no space' USING ERRCODE = '\(state)'; END $$"))
            }
        }
        #expect(error?.code == .databaseUnavailable, "\(String(describing: error))")
        #expect(error?.hint?.contains("Free space") == true)
    }
}
