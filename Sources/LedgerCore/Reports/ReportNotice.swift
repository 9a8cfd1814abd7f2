/// What a reader must know before trusting a clean-looking report (issue 39; decision 0069): each a
/// `{code, message}` in the sealed JSON's `notices`, printed first on every page. The notices two or
/// three reports share are written here once.
public struct ReportNotice: Codable, Sendable, Equatable {
    /// A stable code (`period-not-over`, `issued-before-newest-event`, …).
    public var code: String
    /// The sentence printed.
    public var message: String

    /// A notice.
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `{code, message}`.
    public var json: JSONValue { ["code": .string(code), "message": .string(message)] }

    /// The notices as the reports' `notices` array.
    public static func json(_ notices: [ReportNotice]) -> JSONValue { .array(notices.map(\.json)) }

    /// The period had not ended when the newest event read (recorded at `newest`, RFC 3339) was recorded.
    /// - Parameters:
    ///   - report: what reads (`report`, `register`); `later`: what of the period may be missing (`events`, `items`).
    public static func periodNotOver(newest: String, position: Int64, report: String, later: String) -> ReportNotice {
        ReportNotice("period-not-over",
                     "The period had not ended when the newest event this \(report) reads was recorded (\(newest), position \(position)): "
                         + "\(later) of the period recorded later are not in it.")
    }

    /// The notices a policy's date of issue calls for (`YYYY-MM-DD`; nil: no notice): dated before
    /// the period's end (`periodEnd`, RFC 3339, exclusive; nil for a report without a period), or
    /// before the newest event the report reads was recorded (`newest`, RFC 3339).
    public static func issuance(dateOfIssue: String?, periodEnd: String?, newest: String?, report: String = "report") -> [ReportNotice] {
        guard let issued = dateOfIssue else { return [] }
        var notices: [ReportNotice] = []
        if let periodEnd, issued < String(periodEnd.prefix(10)) {
            notices.append(ReportNotice("issued-before-period-end",
                                        "The policy dates this \(report) \(issued), before its period ended (\(periodEnd))."))
        }
        if let newest, issued < String(newest.prefix(10)) {
            notices.append(ReportNotice("issued-before-newest-event",
                                        "The policy dates this \(report) \(issued), before the newest event it reads was recorded (\(newest))."))
        }
        return notices
    }
}
