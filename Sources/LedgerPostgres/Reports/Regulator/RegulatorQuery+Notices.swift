import Foundation
import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// What a reader must know before trusting a clean-looking page (issue 39): the period holds no
    /// event of the log, or none of the jurisdiction; the period had not ended when the newest event
    /// read was recorded; the policy's date of issue falls before the period's end or before that
    /// event. Each is `{code, message}`, in that order; none when nothing needs saying.
    func notices(scope: JSONValue, on connection: PostgresConnection) async throws -> JSONValue {
        var first: Date?, last: Date?, newest: Date?
        for try await (earliest, latest, recorded) in try await run(ReportSQL.Regulator.logSpan, on: connection)
            .decode((Date?, Date?, Date?).self) {
            (first, last, newest) = (earliest, latest, recorded)
        }
        let inPeriod = scope["eventsInPeriod"]?.intValue ?? 0
        let inJurisdiction = scope["eventsInJurisdiction"]?.intValue ?? 0
        var notices: [ReportNotice] = []
        if inPeriod == 0 {
            let held = first.flatMap { first in last.map { "its events occurred from \(Self.timestamp(first)) to \(Self.timestamp($0))" } }
                ?? "it held no event"
            notices.append(ReportNotice("no-events-in-period",
                                        "No event of log \(parameters.log) occurred in this period: as of position \(position), \(held). "
                                            + "Every figure of this report is zero for that reason, not because nothing happened that should have."))
        } else if inJurisdiction == 0 {
            notices.append(ReportNotice("no-events-in-jurisdiction",
                                        "\(inPeriod) events of the log occurred in this period, none of them in \(parameters.jurisdiction) or a place "
                                            + "within it: every figure of this report is zero for that reason."))
        }
        if let newest, newest < parameters.to {
            notices.append(.periodNotOver(newest: Self.timestamp(newest), position: position, report: "report", later: "events"))
        }
        notices += ReportNotice.issuance(dateOfIssue: policy.dateOfIssue, periodEnd: Self.timestamp(parameters.to),
                                         newest: newest.map(Self.timestamp))
        return ReportNotice.json(notices)
    }
}
