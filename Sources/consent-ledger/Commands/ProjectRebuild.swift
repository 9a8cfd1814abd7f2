import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `consent-ledger project rebuild NAME`.
struct ProjectRebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild a projection from the first event into fresh tables, then swap them in at once.",
        discussion: """
            Readers keep seeing the old tables until the swap, which is one transaction. An event a fold \
            cannot take stops that projection on its log just before it: the other logs are built and \
            swapped in, and the stalled log is named with its position and error (exit status non-zero). The log \
            is read and parsed once for every projection rebuilt, on a connection of its own, while they fold \
            the range read before; `all` swaps them together. Projections: \
            \(ProjectionDefinition.names.joined(separator: ", ")), or `all`.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The projection to rebuild, or `all`.")
    var name: String

    @Option(help: "Log positions folded per build step (one transaction).")
    var chunkSize: Int64 = 50_000

    func validate() throws {
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
    }

    func run() async throws {
        let projections = name == "all" ? ProjectionDefinition.all : [try ProjectionDefinition.named(name)]
        let stalls = try await LedgerDatabase.with(try database.target(), role: .administrator, progress: Console.note) { pool in
            let rebuilder = ProjectionRebuilder(pool: pool, chunkSize: chunkSize)
            let bar = ProgressBar(label: "rebuild " + projections.map(\.name).joined(separator: ", "), unit: "positions")
            let result = try await rebuilder.rebuild(projections) { progress in
                if !progress.isFinal { bar.update(done: progress.done, total: progress.total) }
            }
            bar.finish()
            let rate = result.seconds > 0 ? Int(Double(result.positions) / result.seconds) : 0
            try Console.out("\(projections.map(\.name).joined(separator: ", ")): rebuilt from \(result.positions) positions "
                  + "(\(result.events) events read) in " + String(format: "%.2f", result.seconds) + " s, \(rate) positions/s")
            return result.stalls
        }
        try ProjectStalls.report(stalls)
    }
}
