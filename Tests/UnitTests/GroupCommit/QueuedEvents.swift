import Foundation
import LedgerCore

/// Events for the group commit's queue tests: valid, each on a stream of its own choosing. The
/// queue never looks inside them; it needs real `EventInput`s only to carry.
enum QueuedEvents {
    /// A valid `AgeRangeShared` event on `stream`.
    static func event(stream: String) throws -> EventInput {
        let line = #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"\#(stream)","type":"AgeRangeShared","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","actor":{"kind":"app"},"app":{"bundleId":"com.example.kids","platform":"iOS"},"payload":{"lowerBound":13,"upperBound":15}}"#
        return try EventInput(line: Array(line.utf8))
    }
}
