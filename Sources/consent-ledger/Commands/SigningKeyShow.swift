import ArgumentParser
import LedgerCore

/// `consent-ledger signing-key show`.
struct SigningKeyShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the public (verifier) key that checks checkpoints and proofs.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var key: SigningKeyOptions

    func run() async throws {
        try Console.out(try key.load(dataFolder: database.dataFolder()).verifierKey.text)
    }
}
