import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// A signed checkpoint some positions behind the head of the bench's log, as a ledger that signs
/// checkpoints regularly would have when a report is asked for: the report's integrity check then
/// re-hashes only what came after it (``ReportIntegrity``). Made once; a kept cluster keeps it.
struct BenchCheckpoint: Sendable {
    /// The checkpoint's tree size (nil: none was asked for).
    var treeSize: UInt64?
    /// Seconds this run spent building the tree and signing (nil: found from an earlier run).
    var seconds: Double?

    /// Signs the tree of `head - behind` leaves of `log` unless a checkpoint exists already.
    static func ensure(log: String, head: Int, behind: Int, admin: LedgerPool, logger: Logger) async throws -> BenchCheckpoint {
        guard behind >= 0, behind < head else { return BenchCheckpoint(treeSize: nil, seconds: nil) }
        let store = CheckpointStore(pool: admin, logger: logger)
        if let existing = try await store.latest(log: log) {
            Progress.note("log \(log) already has a checkpoint of \(existing.treeSize) leaves (signed \(existing.signedAt)): using it")
            return BenchCheckpoint(treeSize: existing.treeSize, seconds: nil)
        }
        let size = UInt64(head - behind)
        Progress.note("building the Merkle tree to \(size) leaves, re-hashing them and signing a checkpoint (a throwaway key)")
        let key = try NoteSigningKey(generatingWithName: "bench.consent-ledger.local")
        let watch = Stopwatch()
        let signed = try await store.sign(log: log, key: key, upTo: size) { Progress.note("  \($0)") }
        return BenchCheckpoint(treeSize: signed.checkpoint.treeSize, seconds: watch.elapsedSeconds)
    }

    /// One line for the benchmark's output.
    var line: String {
        guard let treeSize else { return "no checkpoint (--checkpoint-behind): the report re-hashes every position" }
        let made = seconds.map { "made by this run in \(ReportText.fixed($0, 1)) s (building the tree and re-hashing \(treeSize) records, "
            + "\(ReportText.grouped(Double(treeSize) / $0)) positions/s)" } ?? "made by an earlier run"
        return "signed checkpoint of \(ReportText.grouped(Double(treeSize))) leaves, \(made): reports as of the head re-hash only the "
            + "positions after it"
    }
}
