import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger verify`.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recompute every hash, link and Merkle node of a log; exit 0 only if all of them check.",
        discussion: """
            For each event, in position order: the position follows the previous one; leaf_hash is \
            SHA-256(0x00 || record); chain_hash is SHA-256(previous chain_hash || leaf_hash); the record \
            is the object the ledger writes; and every column that projections, replay and reports read \
            (subject, occurred_at, actor, type, stream, …) agrees with the record (compared here from the record's \
            bytes, and by the database's own rule for any record not in the ledger's own form). Then the log's head \
            row must match the newest event. The hashes are recomputed here, in Swift, not by the database. \
            Every stored node of the Merkle tree is recomputed from the leaf hashes, and every signed checkpoint is \
            checked against the tree, the log's chain hash and its signature. Exit status 0 only when everything \
            checks; otherwise 1, with the first bad position or node printed. \
            Consecutive ranges of the log are checked side by side on one connection per core, in one snapshot of \
            the database; progress, with the rate and the time left, goes to standard error. \
            With --since-checkpoint, only the newest signed checkpoint is checked (its signature, its root against \
            the stored tree, its chain hash against the log, its size within the log's head) and only the events \
            after it are re-hashed: the records it covers are not read, and what was verified when that checkpoint \
            was signed is relied on (the output says which positions). \
            With --projections, every projection is also folded again from the log, into private temporary tables, to \
            the position its live tables have reached, and each table is compared with the live one row for row: a \
            projection row deleted, added or changed behind the folds' back fails (exit 1, naming the table and the row).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log to verify.")
    var log: String

    @Flag(help: "Check the newest signed checkpoint and re-hash only the events after it (the whole log when it has none).")
    var sinceCheckpoint = false

    @Flag(help: "Also fold the log again into private tables and compare every projection's live tables with it, row for row.")
    var projections = false

    func run() async throws {
        let bar = ProgressBar(label: "verify \(log)")
        let (verification, readsProblem) = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            (try await ledger.verifyAndRecord(log: log, sinceCheckpoint: sinceCheckpoint, by: ReadRecording.access.reader,
                                              progress: { done, total in bar.update(done: done, total: total) },
                                              treeNote: { bar.finish(); Console.note("… " + $0) }),
             try await ledger.verifyReadAudit(log: log))
        }
        bar.finish()
        let report = verification.chain
        if let checkpoint = verification.checkpoint {
            if let problem = verification.checkpointProblem {
                try Console.out("log \(log): the checkpoint of \(checkpoint.treeSize) leaves FAILED: \(problem)")
                throw ExitCode(1)
            }
            try Console.out("log \(log): checkpoint of \(checkpoint.treeSize) leaves verified (Ed25519 signature by \(checkpoint.keyName), "
                + "root against the stored Merkle tree, chain hash against the log, within the log's head)")
            try Console.out("log \(log): positions 1 to \(checkpoint.treeSize) were not read: they rest on the re-hash made when each "
                + "checkpoint up to this one was signed; `consent-ledger verify --log \(log)` re-hashes them")
        } else if sinceCheckpoint {
            try Console.out("log \(log): no signed checkpoint yet, so every event was re-hashed")
        }
        if let problem = report.problem {
            try Console.out("log \(log): FAILED after \(report.startPosition + report.verifiedCount) good events")
            try Console.out("first bad \(problem)")
            throw ExitCode(1)
        }
        let scope = report.startPosition > 0 ? "verified the \(report.verifiedCount) events after it" : "verified \(report.verifiedCount) events"
        try Console.out("log \(log): \(scope); head position \(report.headPosition), chain hash \(LedgerHash.hex(report.lastChainHash))")
        if let tree = report.tree {
            guard tree.problem == nil else {
                try Console.out("log \(log): Merkle tree or checkpoints FAILED: \(tree.problem ?? "")")
                throw ExitCode(1)
            }
        }
        if let checkpoints = verification.checkpoints {
            guard checkpoints.passed else {
                try Console.out("log \(log): Merkle tree or checkpoints FAILED: \(checkpoints.problem ?? "")")
                throw ExitCode(1)
            }
            let size = report.tree?.size ?? 0, nodes = report.tree?.nodesChecked ?? 0
            if size == 0 && checkpoints.checkpointsChecked == 0 {
                try Console.out("log \(log): no Merkle tree or signed checkpoint yet (`consent-ledger checkpoint --log \(log)` builds and signs one)")
            } else {
                try Console.out("log \(log): Merkle tree of \(size) leaves verified (\(nodes) stored nodes), "
                    + "\(checkpoints.checkpointsChecked) signed checkpoint\(checkpoints.checkpointsChecked == 1 ? "" : "s") verified")
            }
        }
        if let readsProblem {
            try Console.out("log \(log): the record of reads FAILED: \(readsProblem)")
            throw ExitCode(1)
        }
        try Console.out("log \(log): the record of who read subjects' data verified (its hash chain)")
        if !verification.recorded { Console.note(VerificationRecord.notRecordedNote) }
        if projections {
            let outcomes = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
                try await ledger.proveProjections(log: log, by: ReadRecording.access.reader, progress: { Console.note("… " + $0) })
            }
            for outcome in outcomes {
                guard outcome.passed else {
                    try Console.out("log \(log): projection \(outcome.projection) FAILED: \(outcome.problem ?? "")")
                    throw ExitCode(1)
                }
                try Console.out("log \(log): projection \(outcome.projection) equals the log folded again to position \(outcome.position) "
                    + "(\(outcome.tables) tables, \(outcome.rows) rows)")
            }
        }
        if report.nonCanonicalCount > 0 {
            try Console.out("note: \(report.nonCanonicalCount) records are not RFC 8785 canonical (appended by a client that does not canonicalize); their hashes check")
        }
    }
}
