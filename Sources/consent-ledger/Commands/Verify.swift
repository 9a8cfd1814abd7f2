import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `consent-ledger verify`.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recompute every hash and link of a log; exit 0 only if all of them check.",
        discussion: """
            For each event, in position order: the position follows the previous one; leaf_hash is \
            SHA-256(0x00 || record); chain_hash is SHA-256(previous chain_hash || leaf_hash); the record \
            is the object the ledger writes; and the columns agree with the record. Then the log's head row \
            must match the newest event. The hashes are recomputed here, in Swift, not by the database. \
            Then the stored Merkle tree is checked against the leaf hashes, level by level, and every signed \
            checkpoint against the tree and its signature. Exit status 0 only when everything checks; \
            otherwise 1, with the first bad position or node printed.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log to verify.")
    var log: String

    func run() async throws {
        let (report, tree) = try await LedgerDatabase.with(try database.target(), role: .auditor, progress: Console.note) { client in
            let report = try await LogVerifier(store: EventStore(client: client)).verify(log: log) { done, total in
                Console.note("… verified \(done) of \(total) events")
            }
            guard report.passed else { return (report, nil as TreeVerifier.Report?) }
            return (report, try await TreeVerifier(client: client).verify(log: log) { Console.note("… " + $0) })
        }
        if let problem = report.problem {
            print("log \(log): FAILED after \(report.verifiedCount) good events")
            print("first bad \(problem)")
            throw ExitCode(1)
        }
        print("log \(log): verified \(report.verifiedCount) events; head position \(report.headPosition), chain hash \(LedgerHash.hex(report.lastChainHash))")
        if let tree {
            guard tree.passed else {
                print("log \(log): Merkle tree or checkpoints FAILED: \(tree.problem ?? "")")
                throw ExitCode(1)
            }
            print("log \(log): Merkle tree of \(tree.treeSize) leaves verified (\(tree.nodesChecked) stored nodes), "
                + "\(tree.checkpointsChecked) signed checkpoint\(tree.checkpointsChecked == 1 ? "" : "s") verified")
        }
        if report.nonCanonicalCount > 0 {
            print("note: \(report.nonCanonicalCount) records are not RFC 8785 canonical (appended by a client that does not canonicalize); their hashes check")
        }
    }
}
