import Foundation

/// The jurisdictions a log's events name, for the console's report form: each with how many
/// events name it and the UTC days (device clock, as reports cut periods) they occurred on. Read
/// from the regulator report's own counts (report_facts' period_counts), so it costs thousands of
/// rows, not the log; counts of events, no subject's data.
public enum ReportFactsJurisdictions {
    /// One jurisdiction of the log.
    public struct Jurisdiction: Sendable, Equatable {
        /// Its code (`US-TX`, `GB`).
        public var code: String
        /// How many events name it.
        public var events: Int64
        /// The first and the last UTC day (`YYYY-MM-DD`, device clock) an event naming it occurred
        /// on; the last no later than the newest day the ledger recorded (a device clock set in the
        /// future does not stretch the period).
        public var firstDay: String, lastDay: String

        /// A jurisdiction from its parts.
        public init(code: String, events: Int64, firstDay: String, lastDay: String) {
            self.code = code
            self.events = events
            self.firstDay = firstDay
            self.lastDay = lastDay
        }
    }
}
