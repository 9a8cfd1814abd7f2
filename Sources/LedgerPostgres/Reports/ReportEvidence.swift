import LedgerCore

/// The positions a report cites as evidence: every member named `evidencePositions` (an array of
/// positions), wherever it stands in the report. Every section that rests a row on events names
/// them so (docs/reports.md), which is what lets the integrity check prove each one.
enum ReportEvidence {
    /// Every cited position in `report`.
    static func positions(in report: JSONValue) -> Set<Int64> {
        var found: Set<Int64> = []
        collect(report, into: &found)
        return found
    }

    private static func collect(_ value: JSONValue, into found: inout Set<Int64>) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if key == "evidencePositions", let positions = member.arrayValue {
                    found.formUnion(positions.compactMap { $0.intValue.map(Int64.init) })
                } else {
                    collect(member, into: &found)
                }
            }
        case .array(let items):
            for item in items { collect(item, into: &found) }
        default:
            break
        }
    }
}
