import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger checkpoint --log L`.
struct CheckpointCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Sign a checkpoint of a log's Merkle tree at its head, and print it.",
        discussion: """
            Builds the log's RFC 9162 Merkle tree up to the head, recomputes the records, leaf hashes and \
            chain links added since the last checkpoint, checks that the new tree extends the last \
            checkpoint's (same root at the old size, and a consistency proof that verifies), then signs a \
            C2SP checkpoint (origin NAME/LOG, tree size, base64 root) with the signing key, stores it and \
            prints the signed note on standard output (and to --out). Nothing is signed if a check fails. \
            When the log has not grown since the last checkpoint, that one is printed again. See docs/proofs.md.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var key: SigningKeyOptions

    @Option(help: "The log.")
    var log: String

    @Option(help: ArgumentHelp("Also write the signed checkpoint to this file, for publication.", valueName: "file"))
    var out: String?

    func run() async throws {
        let signing = try key.load(dataFolder: database.dataFolder())
        let signed = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            let bar = ProgressBar(label: "Merkle tree of \(log)", unit: "leaves")
            defer { bar.finish() }
            return try await ledger.signCheckpoint(log: log, key: signing) { progress in
                switch progress {
                case .step(let text): bar.finish(); Console.note(text)
                case .tree(let built, let of): bar.update(done: Int64(built), total: Int64(of))
                }
            }
        }
        let checkpoint = signed.checkpoint
        if signed.isNew {
            let since = signed.previous.map { "extends the checkpoint of \($0.treeSize) (signed \($0.signedAt))" } ?? "the log's first checkpoint"
            Console.note("signed log \(log) at tree size \(checkpoint.treeSize), root \(LedgerHash.hex(checkpoint.rootHash)); \(since)")
        } else {
            Console.note("log \(log) has not grown since its checkpoint of \(checkpoint.treeSize) (signed \(checkpoint.signedAt)); here it is again")
        }
        if let out { try Data(checkpoint.published.utf8).write(to: URL(fileURLWithPath: out)) }
        try Console.outRaw(Array(checkpoint.published.utf8))
    }
}
