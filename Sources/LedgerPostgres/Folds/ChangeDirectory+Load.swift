import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

extension ChangeDirectory {
    /// The directory a range's questions that name no change are resolved against: every change
    /// declared up to the range's end that passes its filter (so the rule is the same in any
    /// range: catch-up, rebuild, time travel); nothing is read when every question names its change.
    static func load(for events: [LedgerEvent], range: FoldRange, on connection: PostgresConnection,
                     logger: Logger) async throws -> ChangeDirectory {
        let needed = events.contains {
            if case .permissionQuestionSent(let question) = $0.body { return question.changeId == nil }
            return false
        }
        guard needed else { return ChangeDirectory() }
        return ChangeDirectory(try await LogReader.events(
            log: range.log, after: 0, through: range.through, types: [SignificantChangeDeclared.eventType],
            filter: range.filter, on: connection, logger: logger))
    }
}
