import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// The integrity section of a report as of position P: whether the records the report was computed
/// from are the ones the ledger signed (issue 36; docs/reliability.md, "What a report's integrity
/// section proves"). It checks, and states, exactly this:
///
/// 1. **The checkpoints still hold.** The newest signed checkpoint at or below P (size C): its
///    Ed25519 signature, its root against the stored Merkle tree, its chain hash against the log at
///    C. The newest checkpoint of the log, whatever its size, must not lie beyond the log's head
///    (events it signed would be gone) and must hold too.
/// 2. **Every record from the period on is re-hashed** (``ChainCheck``): from the first position
///    whose event occurred in the report's period (or C + 1, whichever is first) to P, every leaf
///    hash and chain link is recomputed from the record and every column the projections read is
///    compared with it. Where that range starts at or below C, its chain must end on the chain hash
///    the checkpoint signed, so a record changed there, even with its hashes recomputed, fails.
/// 3. **Every record the report cites before that range is proved** (``CitedRecordProof``): its
///    leaf re-hashed, its columns compared, and its audit path recomputed from the stored tree up
///    to the checkpoint's signed root.
///
/// What lies below the range and is not cited was not read by this report: it rests on the
/// signing of the checkpoints and on the last full `consent-ledger verify`, and the section says so.
/// 4. **The projections**: the newest `consent-ledger verify --projections` (which folds the log
///    again and compares every projection table with it) must not have failed, and the section
///    names the newest that proved them, to a position at or below P (`projectionsProven`).
///
/// Only what is reproducible as of P goes into the sealed section; the newest checkpoint beyond P
/// is checked but not named, so that the same report as of P stays the same bytes.
struct ReportIntegrity: Sendable {
    /// The checkpoint relied on, if any.
    var checkpoint: StoredCheckpoint?
    /// The first position re-hashed by this report's chain check.
    var verifiedFrom: Int64
    /// The last position re-hashed (the report's position).
    var verifiedThrough: Int64
    /// Positions before ``verifiedFrom`` that the report cites, each re-hashed and proved in the
    /// checkpoint's tree.
    var citedProved: Int64 = 0
    /// The newest `consent-ledger verify --projections` that proved every projection equal to the
    /// log, to a position at or below the report's (nil: none did).
    var projectionsProven: VerificationRecord?
    /// The first problem found, if any.
    var problem: String?

    /// True when every check passed.
    var passed: Bool { problem == nil }

    /// Checks the checkpoints and re-hashes the log of `provenance` from the period's first event
    /// (or the checkpoint's end) to its position. `period` is [from, to) on the device clock; nil
    /// re-hashes only what follows the checkpoint.
    static func check(_ provenance: ReportProvenance, period: (from: Date, to: Date)?, pool: LedgerPool,
                      logger: Logger) async throws -> ReportIntegrity {
        let checkpoint = provenance.checkpoint
        var problems: [String] = try await newestCheckpointProblems(provenance, pool: pool, logger: logger)
        if let checkpoint {
            problems += try await checkpoint.problems(pool: pool, logger: logger)
        }
        var from = Int64(checkpoint?.treeSize ?? 0) + 1
        if let period, let first = try await firstPosition(log: provenance.log, period: period, through: provenance.position,
                                                           pool: pool, logger: logger) {
            from = min(from, first)
        }
        if from <= provenance.position {
            let chain = try await ChainCheck.run(log: provenance.log, from: from, through: provenance.position, columns: true,
                                                 pool: pool, logger: logger)
            if let problem = chain.problem { problems.append(problem) }
        }
        let proofs = try await VerificationRecord.projectionProofs(log: provenance.log, atOrBelow: provenance.position, pool: pool,
                                                                   logger: logger)
        if let newest = proofs.newest, !newest.passed {
            problems.append("`consent-ledger verify --projections` at \(newest.verifiedAt) found the projections changed: \(newest.summary)")
        }
        return ReportIntegrity(checkpoint: checkpoint, verifiedFrom: from, verifiedThrough: provenance.position,
                               projectionsProven: proofs.passed, problem: problems.first)
    }

    /// Proves every position of `cited` that lies before ``verifiedFrom`` (the ones after it were
    /// re-hashed with the range) against the checkpoint, and adds what fails.
    mutating func prove(cited: Set<Int64>, log: String, pool: LedgerPool, logger: Logger) async throws {
        let before = cited.filter { $0 >= 1 && $0 < verifiedFrom }.sorted()
        guard !before.isEmpty else { return }
        guard let checkpoint else {
            // Without a checkpoint the range starts at position 1: nothing is before it.
            problem = problem ?? "positions \(before.map(String.init).joined(separator: ", ")) are cited but were not re-hashed"
            return
        }
        let found = try await CitedRecordProof(log: log, checkpoint: checkpoint, positions: before).run(pool: pool, logger: logger)
        citedProved = Int64(before.count)
        if problem == nil { problem = found }
    }

    /// The problems of the log's newest checkpoint, when it is not the one the report rests on (one
    /// beyond the head fails: ``StoredCheckpoint/problems(pool:logger:)``).
    private static func newestCheckpointProblems(_ provenance: ReportProvenance, pool: LedgerPool,
                                                 logger: Logger) async throws -> [String] {
        guard let newest = try await CheckpointStore(pool: pool, logger: logger).latest(log: provenance.log),
              newest.treeSize != provenance.checkpoint?.treeSize else { return [] }
        return try await newest.problems(pool: pool, logger: logger)
    }

    /// The first position at or below `through` whose event occurred in `period`.
    private static func firstPosition(log: String, period: (from: Date, to: Date), through: Int64, pool: LedgerPool,
                                      logger: Logger) async throws -> Int64? {
        let rows = try await pool.query("""
            SELECT min(position) FROM ledger.events
             WHERE log_id = \(log) AND occurred_at >= \(period.from) AND occurred_at < \(period.to) AND position <= \(through)
            """, logger: logger)
        for try await first in rows.decode(Int64?.self) { return first }
        return nil
    }

    /// What the check recomputed and what it relied on, as printed in the report.
    var method: String {
        var parts: [String] = []
        if let checkpoint {
            parts.append("checked the signed checkpoint of \(checkpoint.treeSize) events (its Ed25519 signature, its root against "
                + "the stored Merkle tree, its chain hash against the log) and that no newer checkpoint lies beyond the log's head")
        } else {
            parts.append("found no signed checkpoint at or below position \(verifiedThrough), and checked that no checkpoint lies beyond the log's head")
        }
        if verifiedFrom <= verifiedThrough {
            parts.append("re-hashed every record from position \(verifiedFrom) to \(verifiedThrough) in the database "
                + "(leaf hash = SHA-256(0x00 || record), chain hash = SHA-256(previous chain hash || leaf hash), no position missing) "
                + "and compared every column the projections read with its record"
                + (checkpoint.map { Int64($0.treeSize) >= verifiedFrom ? "; the chain through \($0.treeSize) ends on the hash the checkpoint signed" : "" } ?? ""))
        } else {
            parts.append("found no position after the checkpoint to re-hash")
        }
        if citedProved > 0 {
            parts.append("re-hashed the \(citedProved) cited record\(citedProved == 1 ? "" : "s") before position \(verifiedFrom), compared "
                + "their columns, and proved each in the checkpoint's tree (its audit path recomputed up to the signed root)")
        }
        let trusted = verifiedFrom > 1
            ? "positions 1 to \(verifiedFrom - 1) that the report does not cite were not read by it: they rest on the signing "
                + "of the checkpoints (each re-hashes the records since the one before) and on the last full `consent-ledger verify`"
            : "every position up to the report's was re-hashed"
        let projections = projectionsProven.map {
            "the projections it read were last proven equal to the log, to position \($0.headPosition), at \($0.verifiedAt) "
                + "(`consent-ledger verify --projections`)"
        } ?? "the projections it read have not been proven equal to the log at or below this position "
            + "(`consent-ledger verify --projections` folds the log again and compares every table)"
        return parts.joined(separator: "; ") + "; " + trusted + "; " + projections
    }

    /// As printed in the report (``RegulatorIntegritySection``), its checkpoint read from the
    /// stored checkpoint's JSON (``ReportProvenance/reportCheckpoint(_:)``).
    var section: RegulatorIntegritySection {
        get throws {
            RegulatorIntegritySection(checkpoint: try checkpoint.map(ReportProvenance.reportCheckpoint), verifiedFrom: verifiedFrom,
                                      verifiedThrough: verifiedThrough, citedProved: citedProved,
                                      projectionsProven: projectionsProven.map { .init(verifiedAt: $0.verifiedAt, position: $0.headPosition) },
                                      passed: passed, problem: problem, method: method)
        }
    }
}
