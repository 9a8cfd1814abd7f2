import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The integrity section of a report as of position P (docs/design/reports.md: "the checkpoint the report was
/// computed against, and the result of verifying the log up to it").
///
/// With a signed checkpoint of size C <= P, the records up to C were re-hashed when it was signed
/// (each checkpoint re-hashes the records since the one before it and checks that its tree extends
/// the last one's), so the report checks that the checkpoint still holds: its signature by the key
/// it names, its root against the stored tree at C (O(log n) reads) and its chain hash against the
/// stored chain hash at C; then it recomputes every leaf hash and chain link from C + 1 to P
/// (``ChainCheck``). Without a checkpoint it recomputes positions 1 to P. Either way the cost is
/// proportional to what is new since the last checkpoint, not to the log.
/// `consent-ledger verify` re-checks everything from position 1.
struct ReportIntegrity: Sendable {
    /// The checkpoint relied on, if any.
    var checkpoint: StoredCheckpoint?
    /// The first position re-hashed by this report.
    var verifiedFrom: Int64
    /// The last position re-hashed (the report's position).
    var verifiedThrough: Int64
    /// The first problem found, if any.
    var problem: String?

    /// True when every check passed.
    var passed: Bool { problem == nil }

    /// Checks the log of `provenance` up to its position.
    static func check(_ provenance: ReportProvenance, pool: LedgerPool, logger: Logger) async throws -> ReportIntegrity {
        let checkpoint = provenance.checkpoint
        let from = Int64(checkpoint?.treeSize ?? 0) + 1
        var problems: [String] = []
        if let checkpoint {
            problems += try await checkpoint.problems(pool: pool, logger: logger)
        }
        if from <= provenance.position {
            let chain = try await ChainCheck.run(log: provenance.log, from: from, through: provenance.position, pool: pool, logger: logger)
            if let problem = chain.problem { problems.append(problem) }
        }
        return ReportIntegrity(checkpoint: checkpoint, verifiedFrom: from, verifiedThrough: provenance.position, problem: problems.first)
    }

    /// What the check recomputes, as printed in the report.
    var method: String {
        let rehash = verifiedFrom > verifiedThrough
            ? "found no position after it to re-hash"
            : "recomputed leaf hash = SHA-256(0x00 || record) and chain hash = SHA-256(previous chain hash || leaf hash) "
                + "in the database for positions \(verifiedFrom) to \(verifiedThrough), with no position missing"
        guard let checkpoint else {
            return "no signed checkpoint at or below position \(verifiedThrough): " + rehash + "; "
                + "`consent-ledger verify` checks each record's fields and canonical form as well"
        }
        return "positions 1 to \(checkpoint.treeSize) were re-hashed when checkpoints up to the one of tree size \(checkpoint.treeSize) "
            + "were signed (each re-hashes the records since the one before and proves its tree extends it); this report checked that "
            + "checkpoint's Ed25519 signature, its root against the stored Merkle tree and its chain hash against the log, and " + rehash
            + "; `consent-ledger verify` re-checks every position"
    }

    /// As printed in the report.
    var json: JSONValue {
        ["checkpoint": checkpoint?.json ?? .null, "verifiedFrom": .number(Double(verifiedFrom)),
         "verifiedThrough": .number(Double(verifiedThrough)), "passed": .bool(passed),
         "problem": problem.map(JSONValue.string) ?? .null, "method": .string(method)]
    }
}
