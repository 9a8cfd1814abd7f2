import Foundation
import LedgerCore
import PostgresNIO

extension EventStore {
    /// Appends one event; when its event id is already stored with exactly this content (a client
    /// retrying an append whose answer it lost), returns the stored position as an idempotent
    /// replay instead of refusing it. A different event under a stored id is still refused
    /// (`duplicate-event-id`).
    public func appendOne(log: String, event: EventInput) async throws -> AppendResult {
        do {
            return try await append(log: log, events: [event])
        } catch let error as LedgerError where error.code == .duplicateEventId {
            let sealed = try await sealPersonalData(log: log, events: [event])[0]
            let rows = try await client.query("""
                SELECT position, stream, stream_version, record FROM ledger.events
                 WHERE log_id = \(log) AND event_id = \(UUID(uuidString: event.envelope.eventId))
                """, logger: logger)
            for try await (position, stream, version, record) in rows.decode((Int64, String, Int64, Data).self) {
                let stored = try LedgerRecord(parsing: Array(record))
                guard CanonicalJSON.encode(stored.event) == sealed.canonicalBytes else { break }
                return AppendResult(events: [.init(position: position, eventId: event.envelope.eventId, stream: stream, streamVersion: version)],
                                    idempotentReplay: true)
            }
            throw error
        }
    }
}
