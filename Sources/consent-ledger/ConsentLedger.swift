import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger`: the command-line tool. One file per subcommand under Commands/.
@main
struct ConsentLedger: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent-ledger",
        abstract: "An append-only, tamper-evident ledger of age declarations, parental consent and age-rating exceptions.",
        discussion: """
            With no --database-url (or DATABASE_URL) every command uses the embedded database: a private \
            PostgreSQL cluster in ./.consent-ledger (or --data-dir / CONSENT_LEDGER_HOME) that the tool \
            creates and starts itself, and stops again afterwards unless `db start` started it.

            New here? Run `consent-ledger demo`.
            """,
        version: LedgerSoftware.version,
        subcommands: [Demo.self, Db.self, Migrate.self, Append.self, Events.self, Verify.self, Logs.self, Erase.self, Catalogue.self, Simulate.self, Project.self, State.self, Replay.self, Explain.self, Report.self, SigningKey.self, CheckpointCommand.self, Prove.self, VerifyProof.self, Serve.self, Keys.self]
    )

    /// Runs the command; a ``LedgerError`` is printed as `error: …` with its hint, exit status 1.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as LedgerError {
            Console.note("error: \(error)")
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
