import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// `consent-ledger project status`.
struct ProjectStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each projection's position and lag on every log, whether it needs a rebuild, and which logs stalled.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let statuses = try await LedgerDatabase.with(try database.target(), role: .auditor, progress: Console.note) { pool in
            try await ProjectionStatus.all(pool: pool)
        }
        var needsWork = false, stalled = false
        for status in statuses {
            switch status.state {
            case .missing:
                try Console.out("\(status.projection): not built (run `consent-ledger project run`)")
                needsWork = true
                continue
            case .stale(let hash):
                try Console.out("\(status.projection): STALE, built by another definition (\(hash.prefix(12))…); `project run` rebuilds it")
                needsWork = true
            case .current:
                try Console.out("\(status.projection): current definition")
            }
            if status.logs.isEmpty { try Console.out("  no logs yet") }
            for log in status.logs {
                let updated = log.updatedAt.map { " (moved \(Self.format($0)))" } ?? ""
                try Console.out("  log \(log.log): position \(log.position) of \(log.head), lag \(log.lag)\(updated)")
                if let stall = log.stall {
                    try Console.out("    STALLED at position \(stall.position) (event \(stall.eventId.uuidString.lowercased())) "
                                    + "since \(Self.format(stall.since)): \(stall.error)")
                    stalled = true
                } else if log.lag > 0 {
                    needsWork = true
                }
            }
        }
        if needsWork { try Console.out("some projections are behind: `consent-ledger project run` catches them up") }
        if stalled { try Console.out("some logs are stalled: \(ProjectionStall.hint)") }
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}
