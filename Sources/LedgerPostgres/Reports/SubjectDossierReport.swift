import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The subject dossier (docs/design/reports.md): a subject's whole history in order, each event with a plain
/// sentence, the positions and ids it rests on, and the subject's state after it, as of a log
/// position; what the ledger's rules found about the subject's events (docs/rules.md); and every
/// event those findings cite that is not one of the subject's (a significant change's declaration
/// names no subject), with its inclusion proof, so that the dossier is a self-contained dispute
/// file. Built on ``SubjectReplay``; it carries no payloads, so no personal data (sealed or erased)
/// can appear in it.
public enum SubjectDossierReport {
    /// The columns of each step, in order: the CSV header and the members of each JSON step.
    public static let columns = [
        "position", "eventId", "type", "stream", "occurredAt", "recordedAt", "actor", "app", "sentence",
        "changedState", "state", "inclusionProof",
    ]

    /// The sealed report and its steps.
    public struct Result: Sendable {
        /// The whole report, sealed (``ReportSeal``): what `--format json` writes.
        public var json: [UInt8]
        /// Its seal.
        public var sha256: String
        /// The steps, each an object with the members of ``columns``.
        public var steps: [JSONValue]
        /// Where it was computed.
        public var provenance: ReportProvenance
    }

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
            var found: [JSONValue] = [], citing: Set<Int64> = []
            for try await (kind, source, position, eventId, detail, evidence, review) in try await connection.watchedQuery("""
                SELECT kind, source, position, event_id::text, detail, evidence, needs_review FROM findings
                 WHERE log_id = \(log) AND subject = \(subject) AND position <= \(provenance.position)
                 ORDER BY position, kind
                """, logger: logger).decode((String, String, Int64, String, String, [Int64], String?).self) {
                found.append(["rule": .string(kind), "kind": .string(source == "rule" ? "violation" : "anomaly"),
                              "position": .number(Double(position)), "eventId": .string(eventId), "detail": .string(detail),
                              "evidencePositions": .array(evidence.map { .number(Double($0)) }),
                              "needsReview": review.map(JSONValue.string) ?? .null])
                citing.formUnion(evidence.filter { !own.contains($0) })
            }
            let cited = try await ReplayedEvent.read(log: log, positions: citing.sorted(), subjectOrNone: subject,
                                                     on: connection, logger: logger)
            return (found, cited)
        }
        let proofs = try await inclusionProofs(log: log, positions: history.steps.map(\.event.position) + cited.map(\.position),
                                               checkpoint: provenance.checkpoint, pool: pool, logger: logger)
        let citedEvents: [JSONValue] = cited.map { e in
            .object([
                "position": .number(Double(e.position)), "eventId": .string(e.eventId), "type": .string(e.type),
                "stream": .string(e.stream), "occurredAt": .string(e.occurredAt), "recordedAt": .string(e.recordedAt),
                "actor": .string(e.actor), "app": e.app.map(JSONValue.string) ?? .null, "sentence": .string(e.sentence),
                "inclusionProof": proofs[e.position] ?? .null,
            ])
        }
        let steps: [JSONValue] = history.steps.map { step in
            let e = step.event
            return .object([
                "position": .number(Double(e.position)), "eventId": .string(e.eventId), "type": .string(e.type),
                "stream": .string(e.stream), "occurredAt": .string(e.occurredAt), "recordedAt": .string(e.recordedAt),
                "actor": .string(e.actor), "app": e.app.map(JSONValue.string) ?? .null, "sentence": .string(e.sentence),
                "changedState": .bool(step.changedState), "state": step.state,
                "inclusionProof": proofs[e.position] ?? .null,
            ])
        }
        let (bytes, digest) = ReportSeal.seal([
            "report": "subject-dossier",
            "parameters": ["log": .string(log), "subject": .string(subject), "asOf": .number(Double(provenance.position)),
                           "dateOfIssue": dateOfIssue.map(JSONValue.string) ?? .null],
            // The newest event the dossier reads is the newest of the subject's history and the events its findings cite.
            "notices": ReportNotice.json(ReportNotice.issuance(
                dateOfIssue: dateOfIssue, periodEnd: nil,
                newest: (history.steps.map(\.event.recordedAt) + cited.map(\.recordedAt)).max(), report: "dossier")),
            "ledger": try provenance.json,
            "software": .string(LedgerSoftware.name),
            "columns": .array(columns.map(JSONValue.string)),
            "stepCount": .number(Double(steps.count)),
            "steps": .array(steps),
            "findings": .array(findings),
            "citedEvents": .array(citedEvents),
        ])
        return Result(json: bytes, sha256: digest, steps: steps, provenance: provenance)
    }

    /// The steps as CSV (RFC 4180), one record per event; `state` is the snapshot's canonical JSON.
    /// For each position up to the checkpoint's tree size: its leaf hash and RFC 9162 audit path in
    /// the checkpoint's tree (`consent-ledger prove inclusion` gives the record with it; together
    /// they check offline against the signed root). Positions after the checkpoint have none.
    static func inclusionProofs(log: String, positions: [Int64], checkpoint: StoredCheckpoint?, pool: LedgerPool,
                                logger: Logger) async throws -> [Int64: JSONValue] {
        guard let checkpoint else { return [:] }
        let covered = positions.filter { $0 >= 1 && UInt64($0) <= checkpoint.treeSize }
        guard !covered.isEmpty else { return [:] }
        let rows = try await pool.query(
            "SELECT position, leaf_hash FROM ledger.events WHERE log_id = \(log) AND position = ANY(\(covered)::bigint[])", logger: logger)
        var leaves: [Int64: [UInt8]] = [:]
        for try await (position, hash) in rows.decode((Int64, Data).self) { leaves[position] = Array(hash) }
        let paths = try await MerkleStore(pool: pool, logger: logger)
            .inclusionProofs(log: log, indexes: covered.map { UInt64($0 - 1) }, size: checkpoint.treeSize)
        var proofs: [Int64: JSONValue] = [:]
        for (position, path) in zip(covered, paths) {
            proofs[position] = [
                "treeSize": .number(Double(checkpoint.treeSize)), "leafHash": .string(LedgerHash.hex(leaves[position] ?? [])),
                "path": .array(path.map { .string(LedgerHash.hex($0)) }),
            ]
        }
        return proofs
    }

    public static func csv(_ steps: [JSONValue]) -> String {
        ReportTable.csv(rows: steps, columns: columns)
    }
}
