import Foundation
import LedgerCore
import LedgerPostgres
import Testing

/// `verify` over the record of who read a subject's data (issue 36, finding 6): it recomputed the
/// chain from the records only, so a column changed behind the triggers' back (the reader, the
/// client, the subject a console page lists) or the newest reads deleted went unnoticed.
@Suite("The record of reads: columns and head verified")
struct ReadAuditVerifyTests {
    /// A log with one event and five recorded reads.
    static func fiveReads() async throws -> TestDatabase {
        let db = try await TestDatabase.create()
        try await CheckpointTests.append(db, 1)
        try await db.as(.auditor) { client in
            let reads = ReadAuditStore(pool: client)
            for n in 1...5 {
                try await reads.record(log: "acme", access: ReadAccess(channel: .cli, reader: "cli/alice", client: "host-\(n)"),
                                       what: "state", subject: "subject-\(n)", detail: "as of head")
            }
            #expect(try await reads.verify(log: "acme") == nil)
        }
        return db
    }

    static func problem(_ db: TestDatabase) async throws -> String? {
        try await db.as(.auditor) { client in try await ReadAuditStore(pool: client).verify(log: "acme") }
    }

    @Test("a column changed behind the triggers' back fails, naming the read and the column", arguments: ["reader", "client", "subject"])
    func changedColumn(column: String) async throws {
        let db = try await Self.fiveReads()
        try await CheckpointTests.tamper(db, table: "ledger.read_audit",
                                         "UPDATE ledger.read_audit SET \(column) = 'forged' WHERE log_id = 'acme' AND seq = 3")
        let problem = try await Self.problem(db)
        #expect(problem?.contains("read 3 of log acme: column \(column) is forged but its record says") == true, "\(problem ?? "nothing found")")
    }

    @Test("the newest reads deleted fail against the head; reads recorded afterwards leave a gap that is named")
    func newestDeleted() async throws {
        let db = try await Self.fiveReads()
        try await CheckpointTests.tamper(db, table: "ledger.read_audit", "DELETE FROM ledger.read_audit WHERE log_id = 'acme' AND seq >= 4")
        let problem = try await Self.problem(db)
        #expect(problem == "the record of reads of log acme ends at read 3, but its head says 5: the newest reads were removed",
                "\(problem ?? "nothing found")")
        // Recording goes on from the head, so the gap stays visible.
        let seq = try await db.as(.auditor) { client in
            try await ReadAuditStore(pool: client).record(log: "acme", access: ReadAccess(channel: .cli, reader: "cli/bob", client: "h"),
                                                          what: "replay", subject: "subject-1", detail: "")
        }
        #expect(seq == 6)
        #expect(try await Self.problem(db) == "the record of reads of log acme skips from 3 to 6")
    }

    @Test("the reader is taken from the database login: a cli read names its role, and only the application role records api or console reads")
    func readerFromTheDatabase() async throws {
        let db = try await Self.fiveReads()
        let reader = try await db.as(.auditor) { client in
            try await ReadAuditStore(pool: client).list(log: "acme", limit: 1).first?.access.reader
        }
        #expect(reader == "cli/consent_ledger_auditor (OS user alice)")
        try await db.as(.auditor) { client in
            await #expect(throws: (any Error).self, "the auditor role may not claim to be the HTTP server") {
                try await ReadAuditStore(pool: client).record(log: "acme", access: ReadAccess(channel: .api, reader: "key123", client: "x"),
                                                              what: "state", subject: "subject-1", detail: "")
            }
        }
        let api = try await db.as(.application) { client in
            try await ReadAuditStore(pool: client).record(log: "acme", access: ReadAccess(channel: .api, reader: "key123", client: "x"),
                                                          what: "state", subject: "subject-1", detail: "")
        }
        #expect(api == 6)
    }

    @Test("the head only moves forward to the read just recorded, and is never deleted")
    func headGuarded() async throws {
        let db = try await Self.fiveReads()
        try await db.as(.administrator) { client async throws in
            #expect(await client.sqlState("UPDATE ledger.read_audit_heads SET seq = 3, chain_hash = (SELECT chain_hash FROM ledger.read_audit WHERE seq = 3)") == "CL005")
            #expect(await client.sqlState("DELETE FROM ledger.read_audit_heads") == "CL005")
            #expect(await client.sqlState("TRUNCATE ledger.read_audit_heads") == "CL005")
        }
    }
}
