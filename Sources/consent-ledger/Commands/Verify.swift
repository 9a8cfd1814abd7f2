import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger verify`.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recompute every hash and link of a log; exit 0 only if all of them check.",
        discussion: """
            For each event, in position order: the position follows the previous one; leaf_hash is \
            SHA-256(0x00 || record); chain_hash is SHA-256(previous chain_hash || leaf_hash); the record \
            is the object the ledger writes; and every column that projections, replay and reports read \
            (subject, occurred_at, actor, type, stream, …) agrees with the record (compared by the database, \
            in one pass beside the hashing). Then the log's head row must match the newest event. The hashes \
            are recomputed here, in Swift, not by the database. \
            Then the stored Merkle tree is checked against the leaf hashes, level by level, and every signed \
            checkpoint against the tree and its signature. Exit status 0 only when everything checks; \
            otherwise 1, with the first bad position or node printed.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log to verify.")
    var log: String

    func run() async throws {
        let bar = ProgressBar(label: "verify \(log)")
        let (report, tree) = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.verify(log: log, progress: { done, total in bar.update(done: done, total: total) },
                                    treeNote: { bar.finish(); Console.note("… " + $0) })
        }
        bar.finish()
        if let problem = report.problem {
            try Console.out("log \(log): FAILED after \(report.verifiedCount) good events")
            try Console.out("first bad \(problem)")
            throw ExitCode(1)
        }
        try Console.out("log \(log): verified \(report.verifiedCount) events; head position \(report.headPosition), chain hash \(LedgerHash.hex(report.lastChainHash))")
        if let tree {
            guard tree.passed else {
                try Console.out("log \(log): Merkle tree or checkpoints FAILED: \(tree.problem ?? "")")
                throw ExitCode(1)
            }
            if tree.treeSize == 0 && tree.checkpointsChecked == 0 {
                try Console.out("log \(log): no Merkle tree or signed checkpoint yet (`consent-ledger checkpoint --log \(log)` builds and signs one)")
            } else {
                try Console.out("log \(log): Merkle tree of \(tree.treeSize) leaves verified (\(tree.nodesChecked) stored nodes), "
                    + "\(tree.checkpointsChecked) signed checkpoint\(tree.checkpointsChecked == 1 ? "" : "s") verified")
            }
        }
        if report.nonCanonicalCount > 0 {
            try Console.out("note: \(report.nonCanonicalCount) records are not RFC 8785 canonical (appended by a client that does not canonicalize); their hashes check")
        }
    }
}
