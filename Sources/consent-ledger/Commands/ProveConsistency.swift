import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger prove consistency --log L --from N [--to M]`.
struct ProveConsistency: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consistency",
        abstract: "Prove that a signed checkpoint's tree extends the tree of an earlier size.",
        discussion: """
            The bundle holds the root at --from, the RFC 9162 consistency proof and the signed checkpoint of \
            size --to (which must exist; default: the newest). Check it with verify-proof, with --trusted \
            naming the older checkpoint you hold.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: ArgumentHelp("The older tree size (the size of the checkpoint you trust).", valueName: "size"))
    var from: Int64

    @Option(help: ArgumentHelp("The tree size of the newer checkpoint (default: the newest).", valueName: "size"))
    var to: Int64?

    @Option(help: ArgumentHelp("Write the bundle to this file instead of standard output.", valueName: "file"))
    var out: String?

    func validate() throws {
        guard from >= 1 else { throw ValidationError("--from is a tree size of 1 or more") }
        if let to, to < from { throw ValidationError("--to (\(to)) must be at least --from (\(from))") }
    }

    func run() async throws {
        let bundle = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.proveConsistency(log: log, from: from, to: to)
        }
        try ProofOutput.write(bundle, to: out)
    }
}
