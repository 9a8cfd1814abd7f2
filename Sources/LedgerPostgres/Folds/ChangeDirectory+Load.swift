import Foundation
import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

extension ChangeDirectory {
    /// The directory a range's questions that name no change are resolved against: every change
    /// declared up to the range's end that passes its filter, from production (decision 0068) (so the rule is the same in any
    /// range: catch-up, rebuild, time travel); nothing is read when every question names its change,
    /// and it is read once for every projection that folds the range (``FoldRange/directory``).
    static func load(for events: [LedgerEvent], range: FoldRange, on connection: PostgresConnection,
                     logger: Logger) async throws -> ChangeDirectory {
        let needed = events.contains {
            if case .permissionQuestionSent(let question) = $0.body { return question.changeId == nil }
            return false
        }
        guard needed else { return ChangeDirectory() }
        return try await range.directory.value {
            ChangeDirectory(try await LogReader.events(
                log: range.log, after: 0, through: range.through, types: [SignificantChangeDeclared.eventType],
                filter: range.filter, on: connection, logger: logger).filter { !$0.isFromTestEnvironment })
        }
    }
}

/// A range's change directory, read by the first fold that needs it and kept for the others.
final class ChangeDirectoryMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: ChangeDirectory?

    /// The kept directory, or `read()`'s, which is kept.
    func value(read: () async throws -> ChangeDirectory) async throws -> ChangeDirectory {
        if let kept = lock.withLock({ kept }) { return kept }
        let fresh = try await read()
        lock.withLock { kept = fresh }
        return fresh
    }
}
