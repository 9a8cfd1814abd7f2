import Foundation
import LedgerCore

/// The regulator report (docs/design/reports.md): one jurisdiction, one period, as of a log
/// position: age signals, consent, significant changes, exceptions, the violations of the ledger's
/// rules with their evidence, coverage, retention and integrity. It is computed in LedgerPostgres
/// (`RegulatorReport.compute`, which also checks the parameters: `RegulatorReport.validate`).
public enum RegulatorReport {
    /// What the report covers.
    public struct Parameters: Sendable, Equatable {
        /// The log.
        public var log: String
        /// An ISO 3166 code the ``JurisdictionCatalogue`` knows (`US`, `US-TX`, `GB`) or `EU`.
        public var jurisdiction: String
        /// The period's start, included.
        public var from: Date
        /// The period's end, excluded.
        public var to: Date
        /// The position to stop at; nil for the head.
        public var asOf: Int64?

        /// Creates parameters.
        public init(log: String, jurisdiction: String, from: Date, to: Date, asOf: Int64? = nil) {
            self.log = log
            self.jurisdiction = jurisdiction
            self.from = from
            self.to = to
            self.asOf = asOf
        }
    }

    /// The sealed report and its document.
    public struct Result: Sendable {
        /// The whole report, sealed (``ReportSeal``): what `--format json` writes.
        public var json: [UInt8]
        /// Its seal.
        public var sha256: String
        /// The report, its `sha256` set.
        public var document: RegulatorDocument
        /// Where it was computed.
        public var provenance: ReportLedger

        /// The sealed report.
        public init(json: [UInt8], sha256: String, document: RegulatorDocument, provenance: ReportLedger) {
            self.json = json
            self.sha256 = sha256
            self.document = document
            self.provenance = provenance
        }

        /// The sealed JSON as a tree, for reading a member by its path (tests, tools); `.null`
        /// only if ``json`` were not JSON, which the canonical encoder never writes.
        public var report: JSONValue { (try? JSONParser.parse(json)) ?? .null }
    }

    /// The report as CSV (RFC 4180), one row per figure (``RegulatorCSV``: `section, measure,
    /// item, value, evidencePositions, evidenceEventIds`), from its document.
    public static func csv(_ document: RegulatorDocument) -> String {
        do {
            return RegulatorCSV.csv(try ReportJSON.value(document))
        } catch {
            // A report holds strings, integers, finite shares, Booleans and lists and objects of them, which always encode.
            preconditionFailure("a regulator report does not encode as JSON: \(error)")
        }
    }

    /// The CSV's header.
    public static var columns: [String] { RegulatorCSV.columns }
}
