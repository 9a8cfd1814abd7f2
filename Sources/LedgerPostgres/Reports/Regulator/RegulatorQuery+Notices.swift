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
        var notices: [(String, String)] = []
        if inPeriod == 0 {
            let held = first.flatMap { first in last.map { "its events occurred from \(Self.timestamp(first)) to \(Self.timestamp($0))" } }
                ?? "it held no event"
            notices.append(("no-events-in-period",
                            "No event of log \(parameters.log) occurred in this period: as of position \(position), \(held). "
                                + "Every figure of this report is zero for that reason, not because nothing happened that should have."))
        } else if inJurisdiction == 0 {
            notices.append(("no-events-in-jurisdiction",
                            "\(inPeriod) events of the log occurred in this period, none of them in \(parameters.jurisdiction) or a place "
                                + "within it: every figure of this report is zero for that reason."))
        }
        if let newest, newest < parameters.to {
            notices.append(("period-not-over",
                            "The period had not ended when the newest event this report reads was recorded (\(Self.timestamp(newest)), "
                                + "position \(position)): events of the period recorded later are not in it."))
        }
        if let issued = policy.dateOfIssue {
            let end = String(Self.timestamp(parameters.to).prefix(10))
            if issued < end {
                notices.append(("issued-before-period-end",
                                "The policy dates this report \(issued), before its period ended (\(Self.timestamp(parameters.to)))."))
            }
            if let newest, issued < String(Self.timestamp(newest).prefix(10)) {
                notices.append(("issued-before-newest-event",
                                "The policy dates this report \(issued), before the newest event it reads was recorded (\(Self.timestamp(newest)))."))
            }
        }
        return .array(notices.map { ["code": .string($0.0), "message": .string($0.1)] })
    }
}
