import Foundation
import LedgerCore

/// The consent register (docs/design/reports.md, "who approved what and when"): one row per
/// PermissionKit question and per age-rating exception, as of a log position. Its document is a
/// ``ConsentRegisterDocument`` of ``ConsentRegisterRow``s (decision 0073); it is computed in
/// LedgerPostgres (`ConsentRegisterReport.compute`), from the `consent_register` projection as of
/// that position, so the report is the same whenever and however it is run.
public enum ConsentRegisterReport {
    /// What the report covers.
    public struct Parameters: Sendable, Equatable {
        /// The log.
        public var log: String
        /// The position to stop at; nil for the head.
        public var asOf: Int64?
        /// Only items asked at or after this instant (RFC 3339), when given.
        public var from: Date?
        /// Only items asked before this instant, when given.
        public var to: Date?
        /// Only this subject's items, when given.
        public var subject: String?
        /// The report policy's date of issue (`YYYY-MM-DD`), when it has one: sealed, and noticed when
        /// it falls before the period's end or the newest event read.
        public var dateOfIssue: String?

        /// Creates parameters.
        public init(log: String, asOf: Int64? = nil, from: Date? = nil, to: Date? = nil, subject: String? = nil, dateOfIssue: String? = nil) {
            self.log = log
            self.asOf = asOf
            self.from = from
            self.to = to
            self.subject = subject
            self.dateOfIssue = dateOfIssue
        }
    }

    /// The columns, in order: the CSV header and the members of each JSON row (``ConsentRegisterRow/columns``).
    public static var columns: [String] { ConsentRegisterRow.columns }

    /// The sealed report (``ReportSeal``): its bytes and its document.
    public struct Result: Sendable {
        /// The whole report, sealed: what `--format json` writes.
        public var json: [UInt8]
        /// Its seal.
        public var sha256: String
        /// The report, its `sha256` set.
        public var document: ConsentRegisterDocument
        /// Where it was computed.
        public var provenance: ReportLedger

        /// The sealed report.
        public init(json: [UInt8], sha256: String, document: ConsentRegisterDocument, provenance: ReportLedger) {
            self.json = json
            self.sha256 = sha256
            self.document = document
            self.provenance = provenance
        }

        /// The rows.
        public var rows: [ConsentRegisterRow] { document.rows }
    }

    /// The rows as CSV (RFC 4180): the header of ``columns``, then one record per item; lists are
    /// joined with spaces, absent values are empty.
    public static func csv(_ rows: [ConsentRegisterRow]) -> String {
        ReportTable.csv(rows: rows, columns: columns)
    }
}
