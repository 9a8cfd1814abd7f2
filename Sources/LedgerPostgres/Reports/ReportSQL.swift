import LedgerReportModel
/// The reports' SQL, written in `projections/reports/<report>/*.sql` beside the projections it
/// reads and compiled into the binary with them (decision 0003), not in Swift strings. Table names
/// are unqualified: ``ReportSource`` sets the search_path to the live tables or their temporary
/// copies. These files are not part of any projection's definition hash: changing a report does not
/// rebuild a projection.
enum ReportSQL {
    /// The consent register's rows (``ConsentRegisterReport``).
    static let consentRegisterRows = file("reports/consent-register/rows.sql")
    /// When the register's first and last items were asked, and the newest event's recording time (its notices).
    static let consentRegisterSpan = file("reports/consent-register/span.sql")
    /// How each withdrawal of consent was enforced: told, closed (``WithdrawalEnforcement``).
    static let withdrawals = file("reports/withdrawals.sql")
    /// A subject's state as JSON (``SubjectSnapshot``): the dossier's states, and `state`'s.
    static let subjectSnapshot = file("reports/dossier/snapshot.sql")

    /// The regulator report's statements (``RegulatorQuery``), one file each, binding its five
    /// values.
    enum Regulator {
        static let periodCounts = regulator("period-counts")
        static let period = regulator("period")
        static let installs = regulator("installs")
        static let questions = regulator("questions")
        static let consentFigures = regulator("consent-figures")
        static let oldestPending = regulator("oldest-pending")
        static let timeToAnswer = regulator("time-to-answer")
        static let outcomesByWeek = regulator("outcomes-by-week")
        static let erasedSubjects = regulator("erased-subjects")
        static let rescissions = regulator("rescissions")
        static let ageSignalsExpired = regulator("age-signals-expired")
        static let ruleViolations = regulator("rule-violations")
        static let significantChanges = regulator("significant-changes")
        static let exceptions = regulator("exceptions")
        static let coverage = regulator("coverage")
        static let retention = regulator("retention")
        static let logSpan = regulator("log-span")

        private static func regulator(_ name: String) -> String { file("reports/regulator/\(name).sql") }
    }

    /// The text of `projections/<path>`.
    static func file(_ path: String) -> String {
        guard let text = EmbeddedProjections.files[path] else { preconditionFailure("projections/\(path) is missing from the build") }
        return text
    }
}
