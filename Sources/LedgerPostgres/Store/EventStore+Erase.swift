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
        do {
            return try await client.withConnection { connection in try await connection.inTransaction(logger: logger) { connection in
                let erasedNow = try await connection.query("SELECT ledger.erase_subject(\(log), \(subject))", logger: logger)
                var done = false
                for try await value in erasedNow.decode(Bool.self) { done = value }
                guard done else {
                    throw LedgerError(.invalidRequest, "subject \(subject) of log \(log) was already erased",
                                      hint: "Nothing to do: their personal data is already unreadable.")
                }
                let rows = try await connection.query(
                    "SELECT position, event_id, stream, stream_version FROM ledger.append_events(\(log), \([erasure.canonicalText]), \([erasure.expectedVersion.sqlText]), \(Self.defaultIdempotencyKey(for: [erasure])))",
                    logger: logger)
                for try await (position, eventId, stream, version) in rows.decode((Int64, UUID, String, Int64).self) {
                    return AppendResult.Appended(position: position, eventId: eventId.uuidString.lowercased(), stream: stream, streamVersion: version)
                }
                throw LedgerError(.databaseError, "append_events returned no row for the erasure")
            } }
        } catch let error as PSQLError {
            throw DatabaseErrors.translate(error)
        }
    }
}
