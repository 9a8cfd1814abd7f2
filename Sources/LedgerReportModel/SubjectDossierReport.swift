import LedgerCore

/// The subject dossier (docs/design/reports.md): a subject's whole history in order, each event
/// with a plain sentence, the positions and ids it rests on, and the subject's state after it, as
/// of a log position; what the ledger's rules found about the subject's events (docs/rules.md); and
/// every event those findings cite that is not one of the subject's, with its inclusion proof, so
/// that the dossier is a self-contained dispute file. It carries no payloads, so no personal data
/// (sealed or erased) can appear in it. Its document is a ``SubjectDossierDocument``; it is
/// computed in LedgerPostgres (`SubjectDossierReport.compute`).
public enum SubjectDossierReport {
    /// The columns of each step, in order: the CSV header and the members of each JSON step
    /// (``SubjectDossierStep/columns``).
    public static var columns: [String] { SubjectDossierStep.columns }

    /// The sealed report and its document.
    public struct Result: Sendable {
        /// The whole report, sealed (``ReportSeal``): what `--format json` writes.
        public var json: [UInt8]
        /// Its seal.
        public var sha256: String
        /// The report, its `sha256` set.
        public var document: SubjectDossierDocument
        /// Where it was computed.
        public var provenance: ReportLedger

        /// The sealed report.
        public init(json: [UInt8], sha256: String, document: SubjectDossierDocument, provenance: ReportLedger) {
            self.json = json
            self.sha256 = sha256
            self.document = document
            self.provenance = provenance
        }

        /// The steps.
        public var steps: [SubjectDossierStep] { document.steps }
    }

    /// The steps as CSV (RFC 4180), one record per event; `state` and `inclusionProof` are their
    /// canonical JSON, absent values empty.
    public static func csv(_ steps: [SubjectDossierStep]) -> String {
        ReportTable.csv(rows: steps, columns: columns)
    }
}
