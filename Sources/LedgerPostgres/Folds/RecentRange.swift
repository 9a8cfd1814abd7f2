import Foundation
import LedgerCore

/// The last range of a log a runner read, kept so that the next projection stepping over the same
/// range folds it without reading and parsing it again: in steady catch-up every projection stands
/// at the same checkpoint, and six reads of each new range became one. Safe because a range at or
/// below a log's head never changes (records are immutable and positions commit in order).
final class RecentRange: @unchecked Sendable {
    private let lock = NSLock()
    private var key: (log: String, after: Int64, through: Int64)?
    private var events: [LedgerEvent] = []
    private var directory = ChangeDirectoryMemo()

    /// The events of every type at positions (`after`, `through`] of `log`: the kept ones when they
    /// are that range, else `read()`'s, which are kept instead.
    func events(log: String, after: Int64, through: Int64,
                read: () async throws -> [LedgerEvent]) async throws -> [LedgerEvent] {
        if let kept = lock.withLock({ () -> [LedgerEvent]? in
            guard let key, key.log == log, key.after == after, key.through == through else { return nil }
            return events
        }) {
            return kept
        }
        let fresh = try await read()
        lock.withLock {
            key = (log, after, through)
            events = fresh
            directory = ChangeDirectoryMemo()
        }
        return fresh
    }

    /// The fold range of the kept range, whose change directory every projection folding it shares.
    func range(log: String, after: Int64, through: Int64) -> FoldRange {
        lock.withLock {
            var range = FoldRange(log: log, after: after, through: through)
            if let key, key.log == log, key.after == after, key.through == through { range.directory = directory }
            return range
        }
    }
}
