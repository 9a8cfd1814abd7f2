import Foundation
import LedgerCore
import PostgresNIO

extension EventStore {
    /// Appends one event (``AppendMode/single``) as a batch of one; when its event id is
    /// already stored with exactly this content (a client retrying an append whose answer it
    /// lost), answers with the stored position as an idempotent replay instead of refusing it. A
    /// different event under a stored id is still refused (`duplicate-event-id`).
    public func appendSingle(log: String, event: EventInput) async throws -> AppendResult {
        do {
            return try await append(.single, log: log, events: [event], idempotencyKey: nil)
        } catch let error as LedgerError where error.code == .duplicateEventId {
            let logger = self.logger
            // Rolled back: sealing the event to compare it may not leave a key behind.
            let stored: AppendResult? = try await pool.rolledBackTransaction { connection in
                let sealed = try await Self.sealPersonalData(log: log, events: [event], on: connection, logger: logger)[0]
                let rows = try await connection.watchedQuery("""
                    SELECT position, stream, stream_version, record FROM ledger.events
                     WHERE log_id = \(log) AND event_id = \(UUID(uuidString: event.envelope.eventId))
                    """, logger: logger)
                var found: AppendResult?
                for try await (position, stream, version, record) in rows.decode((Int64, String, Int64, Data).self) {
                    let record = try LedgerRecord(parsing: Array(record))
                    if CanonicalJSON.encode(record.event) == sealed.canonicalBytes {
                        found = AppendResult(events: [.init(position: position, eventId: event.envelope.eventId, stream: stream, streamVersion: version)],
                                             idempotentReplay: true)
                    }
                }
                return found
            }
            if let stored { return stored }
            throw error
        }
    }
}
