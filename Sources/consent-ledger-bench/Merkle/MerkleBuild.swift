import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// The one-off build of the stored tree, and its size.
enum MerkleBuild {
    /// Extends the stored tree of `log` to `head` leaves (timed) unless it is there, and says its size.
    static func measure(log: String, head: UInt64, admin: LedgerPool, logger: Logger) async throws -> [String] {
        let tree = MerkleStore(pool: admin, logger: logger)
        let before = try await tree.size(log: log)
        var lines: [String] = []
        if before < head {
            Progress.note("building the Merkle tree of \(log) from \(before) to \(head) leaves")
            let watch = Stopwatch()
            _ = try await tree.extend(log: log) { built, target in Progress.note("  tree built to \(built) of \(target) leaves") }
            let seconds = watch.elapsedSeconds
            lines.append("tree built from \(ReportText.grouped(Double(before))) to \(ReportText.grouped(Double(head))) leaves in "
                + "\(ReportText.fixed(seconds, 1)) s (\(ReportText.grouped(Double(head - before) / seconds)) leaves/s, chunks of 1,000,000, "
                + "one transaction each)")
        } else {
            lines.append("tree already built to \(ReportText.grouped(Double(head))) leaves (by an earlier run or a checkpoint)")
        }
        let rows = try await admin.query("""
            SELECT count(*)::bigint, pg_relation_size('ledger.merkle_nodes')::bigint, pg_indexes_size('ledger.merkle_nodes')::bigint,
                   pg_relation_size('ledger.events')::bigint
              FROM ledger.merkle_nodes WHERE log_id = \(log)
            """, logger: logger)
        for try await (count, heap, index, events) in rows.decode((Int64, Int64, Int64, Int64).self) {
            lines.append("ledger.merkle_nodes: \(ReportText.grouped(Double(count))) rows, \(ReportText.megabytes(heap)) + index "
                + "\(ReportText.megabytes(index)) (ledger.events: \(ReportText.megabytes(events)) without indexes)")
        }
        return lines
    }
}
