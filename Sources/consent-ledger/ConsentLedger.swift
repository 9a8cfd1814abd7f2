import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// `consent-ledger`: the command-line tool. One file per subcommand under Commands/.
@main
struct ConsentLedger: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent-ledger",
        abstract: "An append-only, tamper-evident ledger of age declarations, parental consent and age-rating exceptions.",
        discussion: """
            With no --database-url (or DATABASE_URL) every command uses the embedded database: a private \
            PostgreSQL cluster in the project's .consent-ledger folder, found in the current folder or the \
            nearest folder above it, as git finds .git (or --data-dir / CONSENT_LEDGER_HOME). `demo`, \
            `migrate` and `db start` create it when there is none, and say where; the tool starts it \
            itself and stops it again afterwards unless `db start` started it.

            New here? Run `consent-ledger demo`.
            """,
        version: LedgerSoftware.version,
        subcommands: [Demo.self, Db.self, Migrate.self, Append.self, Events.self, Verify.self, Logs.self, Erase.self, Retention.self, Catalogue.self, Rules.self, Simulate.self, Project.self, State.self, Replay.self, Explain.self, Subjects.self, Report.self, SigningKey.self, CheckpointCommand.self, Prove.self, VerifyProof.self, Witness.self, Serve.self, Watch.self, Keys.self, Subscriptions.self, Replica.self]
    )

    /// Runs the command: a ``LedgerError`` is printed as `error: …` with its hint (exit 1); a closed
    /// standard output ends the command quietly (exit 141); SIGINT, SIGTERM or SIGHUP stop an
    /// embedded database the command started before the tool exits (``Interruption``).
    static func main() async {
        signal(SIGPIPE, SIG_IGN)  // A closed pipe is an error from write(2), handled as OutputClosed.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let message = UnknownCommand.message(for: arguments, root: Self.self) {
            Console.note("error: " + message)
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot()
            // `serve` shuts down gracefully on SIGTERM by itself (service lifecycle).
            if !(command is Serve) { Interruption.install() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch is OutputClosed {
            Foundation.exit(141)
        } catch {
            if let error = DatabaseErrors.translateAny(error) as? LedgerError {
                Console.note("error: \(error)")
                Foundation.exit(1)
            }
            exit(withError: error)
        }
    }
}
