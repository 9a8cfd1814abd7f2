import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger prove inclusion --log L --position P`.
struct ProveInclusion: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inclusion",
        abstract: "Prove that the record at a position is in a signed checkpoint's tree.",
        discussion: """
            The bundle holds the record exactly as hashed, its leaf hash, the RFC 9162 audit path and the \
            signed checkpoint (the newest, or --checkpoint SIZE). With --since N it also carries a consistency \
            proof from tree size N, so that whoever trusts an older checkpoint of size N can check that this \
            one extends it (verify-proof --trusted).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: "The record's log position.")
    var position: Int64

    @Option(help: ArgumentHelp("Prove against the checkpoint of this tree size (default: the newest).", valueName: "size"))
    var checkpoint: Int64?

    @Option(help: ArgumentHelp("Add a consistency proof from this older tree size.", valueName: "size"))
    var since: Int64?

    @Option(help: ArgumentHelp("Write the bundle to this file instead of standard output.", valueName: "file"))
    var out: String?

    func validate() throws {
        guard position >= 1 else { throw ValidationError("--position starts at 1") }
        if let since, since < 1 { throw ValidationError("--since is a tree size of 1 or more") }
    }

    func run() async throws {
        let bundle = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.proveInclusion(log: log, position: position, checkpointSize: checkpoint, since: since)
        }
        try ProofOutput.write(bundle, to: out)
    }
}
