import Foundation
import LedgerCore
import PostgresNIO

extension EventStore {
    /// Erases a subject (crypto-shredding): destroys their key and appends `erasure` (a
    /// `SubjectErased` event) in one transaction. Afterwards their sealed personal fields read as
    /// erased; every hash still verifies. Needs the owner's rights.
    ///
    /// - Throws: `invalid-request` when the subject was already erased (nothing is appended).
    public func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended {
        guard erasure.envelope.type == "SubjectErased", erasure.envelope.subject == subject else {
            throw LedgerError(.invalidRequest, "an erasure is recorded by a SubjectErased event about the same subject")
        }
        let logger = self.logger
        return try await pool.transaction { connection in
            let erasedNow = try await connection.watchedQuery("SELECT ledger.erase_subject(\(log), \(subject))", logger: logger)
            var done = false
            for try await value in erasedNow.decode(Bool.self) { done = value }
            guard done else {
                throw LedgerError(.invalidRequest, "subject \(subject) of log \(log) was already erased",
                                  hint: "Nothing to do: their personal data is already unreadable.")
            }
            let result = try await Self.append(log: log, events: [erasure], idempotencyKey: nil, on: connection, logger: logger)
            guard let appended = result.events.first else {
                throw LedgerError(.databaseError, "append_events returned no row for the erasure")
            }
            return appended
        }
    }
}
