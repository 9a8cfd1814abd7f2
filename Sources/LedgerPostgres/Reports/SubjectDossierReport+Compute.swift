import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// Computing the subject dossier: built on ``SubjectReplay`` (the steps and the state after each),
/// the `findings` projection as of the position (``ReportSource``) and the events those findings
/// cite, with each event's inclusion proof in the report's checkpoint. The document is a
/// ``SubjectDossierDocument`` (decision 0073), sealed from the type.
extension SubjectDossierReport {
    /// The dossier of `subject` in `log` as of `asOf` (nil: the head).
    public static func compute(log: String, subject: String, asOf: Int64? = nil, dateOfIssue: String? = nil, pool: LedgerPool,
                               logger: Logger = Logger(label: "consent-ledger.reports")) async throws -> Result {
        let provenance = try await ReportProvenance.resolve(log: log, position: asOf, pool: pool, logger: logger)
        let history = try await SubjectReplay(pool: pool, logger: logger)
            .replay(log: log, subject: subject, asOf: .position(provenance.position))
        let own = Set(history.steps.map(\.event.position))
        let (findings, cited) = try await ReportSource(pool: pool, logger: logger).with(
            log: log, position: provenance.position, projections: .findings
        ) { connection in
            var found: [SubjectDossierFinding] = [], citing: Set<Int64> = []
            for try await (kind, source, position, eventId, detail, evidence, review) in try await connection.watchedQuery("""
                SELECT kind, source, position, event_id::text, detail, evidence, needs_review FROM findings
                 WHERE log_id = \(log) AND subject = \(subject) AND position <= \(provenance.position)
                 ORDER BY position, kind
                """, logger: logger).decode((String, String, Int64, String, String, [Int64], String?).self) {
                found.append(SubjectDossierFinding(rule: kind, kind: LedgerRule.Kind(findingSource: source).rawValue, position: Int(position),
                                                   eventId: eventId, detail: detail, evidencePositions: evidence.map { Int($0) },
                                                   needsReview: review))
                citing.formUnion(evidence.filter { !own.contains($0) })
            }
            let cited = try await ReplayedEvent.read(log: log, positions: citing.sorted(), subjectOrNone: subject,
                                                     on: connection, logger: logger)
            return (found, cited)
        }
        let proofs = try await inclusionProofs(log: log, positions: history.steps.map(\.event.position) + cited.map(\.position),
                                               checkpoint: provenance.checkpoint, pool: pool, logger: logger)
        func shown(_ e: ReplayedEvent) -> SubjectDossierEvent {
            SubjectDossierEvent(position: Int(e.position), eventId: e.eventId, type: e.type, stream: e.stream, occurredAt: e.occurredAt,
                                recordedAt: e.recordedAt, actor: e.actor, app: e.app, sentence: e.sentence, inclusionProof: proofs[e.position])
        }
        let citedEvents = cited.map(shown)
        let steps = try history.steps.map { step in
            SubjectDossierStep(event: shown(step.event), changedState: step.changedState,
                               state: try state(step.state, position: step.event.position))
        }
        let ledger = try provenance.ledger
        var document = SubjectDossierDocument(
            parameters: .init(log: log, subject: subject, asOf: provenance.position, dateOfIssue: dateOfIssue),
            // The newest event the dossier reads is the newest of the subject's history and the events its findings cite.
            notices: ReportNotice.issuance(dateOfIssue: dateOfIssue, periodEnd: nil,
                                           newest: (history.steps.map(\.event.recordedAt) + cited.map(\.recordedAt)).max(), report: "dossier"),
            ledger: ledger, software: LedgerSoftware.name, steps: steps, findings: findings, citedEvents: citedEvents)
        let (bytes, digest) = try ReportSeal.seal(encodable: document)
        document.sha256 = digest
        return Result(json: bytes, sha256: digest, document: document, provenance: ledger)
    }

    /// The replay's snapshot after the event at `position` as a ``SubjectDossierState``; nil while
    /// the ledger keeps nothing about the subject (the replay's `null`).
    static func state(_ snapshot: JSONValue, position: Int64) throws -> SubjectDossierState? {
        if snapshot.isNull { return nil }
        return try ReportDecoding.decode(SubjectDossierState.self, from: snapshot, reportName: "subject's state after position \(position)")
    }

    /// For each position up to the checkpoint's tree size: its leaf hash and RFC 9162 audit path in
    /// the checkpoint's tree (`consent-ledger prove inclusion` gives the record with it; together
    /// they check offline against the signed root). Positions after the checkpoint have none.
    static func inclusionProofs(log: String, positions: [Int64], checkpoint: StoredCheckpoint?, pool: LedgerPool,
                                logger: Logger) async throws -> [Int64: SubjectDossierInclusionProof] {
        guard let checkpoint else { return [:] }
        let covered = positions.filter { $0 >= 1 && UInt64($0) <= checkpoint.treeSize }
        guard !covered.isEmpty else { return [:] }
        let rows = try await pool.query(
            "SELECT position, leaf_hash FROM ledger.events WHERE log_id = \(log) AND position = ANY(\(covered)::bigint[])", logger: logger)
        var leaves: [Int64: [UInt8]] = [:]
        for try await (position, hash) in rows.decode((Int64, Data).self) { leaves[position] = Array(hash) }
        let paths = try await MerkleStore(pool: pool, logger: logger)
            .inclusionProofs(log: log, indexes: covered.map { UInt64($0 - 1) }, size: checkpoint.treeSize)
        var proofs: [Int64: SubjectDossierInclusionProof] = [:]
        for (position, path) in zip(covered, paths) {
            proofs[position] = SubjectDossierInclusionProof(treeSize: checkpoint.treeSize, leafHash: LedgerHash.hex(leaves[position] ?? []),
                                                            path: path.map { LedgerHash.hex($0) })
        }
        return proofs
    }
}
