import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `consent-ledger migrate`.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create or update the ledger schema (roles, tables, append function, triggers).",
        discussion: """
            Safe to run any number of times: every statement is re-runnable, the whole schema is applied \
            in one transaction, and a database whose schema is newer than this build is refused. On an \
            external server, connect as a role that may create roles and schemas. The projections (read \
            models) are built by `project run`; migrate says which are missing or stale.
            """)

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let target = try database.target(creating: true)
        let (outcome, projections) = try await LedgerDatabase.with(target, role: .administrator, progress: Console.note) { pool in
            (try await Migrator(pool: pool).migrate(), try await ProjectionStatus.all(pool: pool))
        }
        switch outcome.previousVersion {
        case nil: Console.note("created the ledger schema, version \(outcome.version), in \(target.displayName)")
        case let previous? where previous == outcome.version:
            Console.note("the ledger schema in \(target.displayName) is at version \(outcome.version); re-applied \(outcome.filesApplied) files, nothing else to do")
        case let previous?:
            Console.note("migrated the ledger schema in \(target.displayName) from version \(previous) to \(outcome.version)")
        }
        let missing = projections.filter { $0.state == .missing }.map(\.projection)
        let stale = projections.filter { if case .stale = $0.state { return true } else { return false } }.map(\.projection)
        if !missing.isEmpty { Console.note("projections not built yet: \(missing.joined(separator: ", ")); `consent-ledger project run` builds them") }
        if !stale.isEmpty { Console.note("projections built by an older definition: \(stale.joined(separator: ", ")); `consent-ledger project run` rebuilds them") }
    }
}
