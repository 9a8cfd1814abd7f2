import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The subject dossier (REPORTS.md): a subject's whole history in order, each event with a plain
/// sentence, the positions and ids it rests on, and the subject's state after it, as of a log
/// position. Built on ``SubjectReplay``; it carries no payloads, so no personal data (sealed or
/// erased) can appear in it.
public enum SubjectDossierReport {
    /// The columns of each step, in order: the CSV header and the members of each JSON step.
    public static let columns = [
        "position", "eventId", "type", "stream", "occurredAt", "recordedAt", "actor", "app", "sentence",
        "changedState", "state",
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
    public static func compute(log: String, subject: String, asOf: Int64? = nil, client: PostgresClient,
                               logger: Logger = Logger(label: "consent-ledger.reports")) async throws -> Result {
        let provenance = try await ReportProvenance.resolve(log: log, position: asOf, client: client, logger: logger)
        let history = try await SubjectReplay(client: client, logger: logger)
            .replay(log: log, subject: subject, asOf: .position(provenance.position))
        let steps: [JSONValue] = history.steps.map { step in
            let e = step.event
            return .object([
                "position": .number(Double(e.position)), "eventId": .string(e.eventId), "type": .string(e.type),
                "stream": .string(e.stream), "occurredAt": .string(e.occurredAt), "recordedAt": .string(e.recordedAt),
                "actor": .string(e.actor), "app": e.app.map(JSONValue.string) ?? .null, "sentence": .string(e.sentence),
                "changedState": .bool(step.changedState), "state": step.state,
            ])
        }
        let (bytes, digest) = ReportSeal.seal([
            "report": "subject-dossier",
            "parameters": ["log": .string(log), "subject": .string(subject), "asOf": .number(Double(provenance.position))],
            "ledger": provenance.json,
            "software": .string(LedgerSoftware.name),
            "columns": .array(columns.map(JSONValue.string)),
            "stepCount": .number(Double(steps.count)),
            "steps": .array(steps),
        ])
        return Result(json: bytes, sha256: digest, steps: steps, provenance: provenance)
    }

    /// The steps as CSV (RFC 4180), one record per event; `state` is the snapshot's canonical JSON.
    public static func csv(_ steps: [JSONValue]) -> String {
        ReportTable.csv(rows: steps, columns: columns)
    }
}
