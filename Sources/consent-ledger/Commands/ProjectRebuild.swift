import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `consent-ledger project rebuild NAME`.
struct ProjectRebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild a projection from the first event into fresh tables, then swap them in at once.",
        discussion: """
            Readers keep seeing the old tables until the swap, which is one transaction. `all` reads the \
            log once for every projection and swaps them together. Projections: \
            \(ProjectionDefinition.names.joined(separator: ", ")), or `all`.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The projection to rebuild, or `all`.")
    var name: String

    @Option(help: "Log positions folded per build step (one transaction).")
    var chunkSize: Int64 = 50_000

    func run() async throws {
        let projections = name == "all" ? ProjectionDefinition.all : [try ProjectionDefinition.named(name)]
        try await LedgerDatabase.with(try database.target(), role: .administrator, progress: Console.note) { client in
            let rebuilder = ProjectionRebuilder(client: client, chunkSize: max(1, chunkSize))
            // `all` is one pass over the log, folding every projection, and one swap.
            let bar = ProgressBar(label: projections.map(\.name).joined(separator: ", "))
            let result = try await rebuilder.rebuild(projections) { progress in
                if !progress.isFinal { bar.update(done: progress.done, total: progress.total, detail: progress.line) }
            }
            bar.finish()
            let rate = result.seconds > 0 ? Int(Double(result.positions) / result.seconds) : 0
            print("\(projections.map(\.name).joined(separator: ", ")): rebuilt from \(result.positions) positions "
                  + "(\(result.events) events read) in " + String(format: "%.2f", result.seconds) + " s, \(rate) positions/s")
        }
    }
}
