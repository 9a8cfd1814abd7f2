import ArgumentParser
import LedgerPostgres

/// `consent-ledger project status | run | rebuild`: the read models.
struct Project: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build, catch up and inspect the projections (the read models in projections/).",
        discussion: """
            Each projection is a set of tables in its own schema \
            (\(ProjectionDefinition.names.joined(separator: ", "))) folded from the events, with a checkpoint per log. \
            `run` brings them all to the head (building any that are missing or whose definition \
            changed), `run --follow` keeps them there as events arrive, `rebuild` builds one again from \
            the first event and swaps it in at once, and `status` shows where each one stands.
            """,
        subcommands: [ProjectStatusCommand.self, ProjectRun.self, ProjectRebuild.self]
    )
}
