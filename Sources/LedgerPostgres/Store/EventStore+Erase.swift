import Foundation
import LedgerCore
import PostgresNIO

extension EventStore {
    /// Erases a subject (crypto-shredding): `ledger.erase_subject` destroys their key and records
    /// `erasure` (a `SubjectErased` event) in one transaction, the one way a `SubjectErased` is
    /// stored (decision 0056). Afterwards their sealed personal fields read as erased; every hash
    /// still verifies. Needs the owner's rights. The event carries no personal data (the
    /// catalogue's `SubjectErased` has none), so nothing is sealed.
    ///
    /// - Throws: `invalid-request` when the subject was already erased (nothing is appended);
    ///   `append-not-permitted` for an event the erasure may not record (the catalogue's
    ///   ``EventSchema/appenders``).
    public func erase(log: String, subject: String, erasure: EventInput) async throws -> AppendResult.Appended {
        guard erasure.envelope.type == SubjectErased.eventType, erasure.envelope.subject == subject else {
            throw LedgerError(.invalidRequest, "an erasure is recorded by a SubjectErased event about the same subject")
        }
        try EventCatalogue.checkAppender(of: erasure.envelope, route: .erase)
        let logger = self.logger
        AppendMode.erasure.trace(logger, events: 1)
        return try await pool.transaction { connection in
            let rows = try await connection.watchedQuery("""
                SELECT position, event_id, stream, stream_version, idempotent_replay
                  FROM ledger.erase_subject(\(log), \(subject), \(erasure.canonicalText), \(Self.defaultIdempotencyKey(for: [erasure])))
                """, logger: logger)
            guard let appended = try await Self.appendResult(of: rows).events.first else {
                throw LedgerError(.invalidRequest, "subject \(subject) of log \(log) was already erased",
                                  hint: "Nothing to do: their personal data is already unreadable.")
            }
            return appended
        }
    }
}

extension EventStore {
    /// `VACUUM ledger.subject_keys`, after an erasure or a retention run has committed: the row
    /// versions that still held destroyed keys are removed from the table, so that no later query,
    /// dump or replica reads them (what the WAL, backups and the page's free space still hold:
    /// docs/operations.md, "Erasure, and what backups still hold"). Needs the owner's rights.
    public func vacuumDestroyedKeys() async throws {
        _ = try await pool.query("VACUUM ledger.subject_keys", logger: logger)
    }
}
