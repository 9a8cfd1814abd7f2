/// The regulator report as CSV (RFC 4180), one row per figure, for spreadsheets:
/// `section, measure, item, value, evidencePositions, evidenceEventIds`. A figure of a list (a
/// trigger's count, a week's approvals, a violation's detail) names its element in `item` (the
/// element's key, week, bucket, rating, change id, a law's id, an unknown jurisdiction code, or
/// rule and position); an element's evidence
/// is repeated on each of its rows. Lists of numbers are joined by spaces, absent values are empty.
public enum RegulatorCSV {
    /// The header.
    public static let columns = ["section", "measure", "item", "value", "evidencePositions", "evidenceEventIds"]

    /// The sections, in the order they are written.
    public static let sections = ["parameters", "ledger", "policy", "scope", "ageSignals", "consent", "significantChanges",
                                  "exceptions", "violations", "coverage", "retention", "integrity"]

    /// The CSV of a regulator report (the JSON object ``RegulatorReport`` computes).
    public static func csv(_ report: JSONValue) -> String {
        var rows: [[String]] = []
        for section in sections {
            guard let value = report[section] else { continue }
            flatten(value, section: section, measure: "", item: "", evidence: ("", ""), into: &rows)
        }
        rows.append(["report", "sha256", "", report[ReportSeal.member]?.stringValue ?? "", "", ""])
        return CSVWriter.document(header: columns, rows: rows)
    }

    private static let evidenceMembers: Set<String> = ["evidencePositions", "evidenceEventIds"]
    private static let itemMembers = ["key", "weekStart", "label", "ratedAge", "changeId", "questionId", "policyId", "subject",
                                      "id", "code"]

    private static func flatten(_ value: JSONValue, section: String, measure: String, item: String,
                                evidence: (String, String), into rows: inout [[String]]) {
        switch value {
        case .object(let members):
            let own = (members["evidencePositions"].map(text) ?? evidence.0, members["evidenceEventIds"].map(text) ?? evidence.1)
            for name in members.keys.sorted() where !evidenceMembers.contains(name) {
                flatten(members[name]!, section: section, measure: measure.isEmpty ? name : measure + "." + name,
                        item: item, evidence: own, into: &rows)
            }
        case .array(let elements) where elements.contains(where: { $0.objectValue != nil }):
            for element in elements {
                flatten(element, section: section, measure: measure, item: itemName(element), evidence: evidence, into: &rows)
            }
        default:
            rows.append([section, measure, item, text(value), evidence.0, evidence.1])
        }
    }

    /// What names an element of a list: a violation by rule and position, others by their key member.
    private static func itemName(_ element: JSONValue) -> String {
        if let rule = element["rule"]?.stringValue, let position = element["position"].map(text) {
            return "\(rule) at \(position)"
        }
        for member in itemMembers {
            if let value = element[member], !value.isNull { return text(value) }
        }
        return ""
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let string): return string
        case .number: return CanonicalJSON.encodeString(value)
        case .array(let elements): return elements.map(text).joined(separator: " ")
        case .object: return CanonicalJSON.encodeString(value)
        }
    }
}
