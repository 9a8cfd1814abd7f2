import LedgerCore
import LedgerReportModel
/// A JSON object inside a report, with the path that leads to it, so that a member the renderer
/// needs but does not find is named in full in the error (`consent.timeToAnswer.medianSeconds`).
///
/// Members the schema requires are read with the throwing accessors: absent → `missing-field`,
/// of the wrong type → `invalid-field`. A required member that may be null is read with the
/// `optional…` accessors, which return nil for null but still throw when the member is absent.
struct ReportNode {
    /// The value at ``path``.
    let value: JSONValue
    /// Its path from the report's root, with `.` between members and `[i]` for elements; empty
    /// for the root.
    let path: String
    /// What the report is called in messages ("regulator report").
    let reportName: String

    /// The root of a report.
    init(root: JSONValue, reportName: String) {
        self.value = root
        self.path = ""
        self.reportName = reportName
    }

    private init(value: JSONValue, path: String, reportName: String) {
        self.value = value
        self.path = path
        self.reportName = reportName
    }

    /// The path of member `key`.
    func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Member `key`, which must be present (it may be null).
    func member(_ key: String) throws -> JSONValue {
        guard let member = value[key] else {
            throw LedgerError(.missingField, "the \(reportName) has no member \(path(of: key))", field: path(of: key),
                              hint: "Render the JSON exactly as `consent-ledger report … --format json` wrote it.")
        }
        return member
    }

    /// Member `key` as an object.
    func object(_ key: String) throws -> ReportNode {
        let member = try member(key)
        guard case .object = member else { throw wrongType(key, member, expected: "an object") }
        return ReportNode(value: member, path: path(of: key), reportName: reportName)
    }

    /// Member `key` as an object, or nil when it is null.
    func optionalObject(_ key: String) throws -> ReportNode? {
        let member = try member(key)
        if member.isNull { return nil }
        guard case .object = member else { throw wrongType(key, member, expected: "an object or null") }
        return ReportNode(value: member, path: path(of: key), reportName: reportName)
    }

    /// Member `key` as a string.
    func string(_ key: String) throws -> String {
        let member = try member(key)
        guard let text = member.stringValue else { throw wrongType(key, member, expected: "a string") }
        return text
    }

    /// Member `key` as a string, or nil when it is null.
    func optionalString(_ key: String) throws -> String? {
        let member = try member(key)
        if member.isNull { return nil }
        guard let text = member.stringValue else { throw wrongType(key, member, expected: "a string or null") }
        return text
    }

    /// Member `key` as an integer.
    func int(_ key: String) throws -> Int {
        let member = try member(key)
        guard let number = member.intValue else { throw wrongType(key, member, expected: "an integer") }
        return number
    }

    /// Member `key` as an integer, or nil when it is null.
    func optionalInt(_ key: String) throws -> Int? {
        let member = try member(key)
        if member.isNull { return nil }
        guard let number = member.intValue else { throw wrongType(key, member, expected: "an integer or null") }
        return number
    }

    /// Member `key` as a number, or nil when it is null.
    func optionalDouble(_ key: String) throws -> Double? {
        let member = try member(key)
        if member.isNull { return nil }
        guard let number = member.doubleValue else { throw wrongType(key, member, expected: "a number or null") }
        return number
    }

    /// Member `key` as a Boolean.
    func bool(_ key: String) throws -> Bool {
        let member = try member(key)
        guard let flag = member.boolValue else { throw wrongType(key, member, expected: "true or false") }
        return flag
    }

    /// Member `key` as an array of objects.
    func objects(_ key: String) throws -> [ReportNode] {
        let member = try member(key)
        guard let elements = member.arrayValue else { throw wrongType(key, member, expected: "an array") }
        return try elements.enumerated().map { index, element in
            let elementPath = "\(path(of: key))[\(index)]"
            guard case .object = element else {
                throw LedgerError(.invalidField, "\(elementPath) of the \(reportName) is \(Self.describe(element)), expected an object",
                                  field: elementPath)
            }
            return ReportNode(value: element, path: elementPath, reportName: reportName)
        }
    }

    /// Member `key` as an array of integers.
    func ints(_ key: String) throws -> [Int] {
        let member = try member(key)
        guard let elements = member.arrayValue else { throw wrongType(key, member, expected: "an array of integers") }
        return try elements.enumerated().map { index, element in
            guard let number = element.intValue else {
                let elementPath = "\(path(of: key))[\(index)]"
                throw LedgerError(.invalidField, "\(elementPath) of the \(reportName) is \(Self.describe(element)), expected an integer",
                                  field: elementPath)
            }
            return number
        }
    }

    /// Member `key` as an array of strings.
    func strings(_ key: String) throws -> [String] {
        let member = try member(key)
        guard let elements = member.arrayValue else { throw wrongType(key, member, expected: "an array of strings") }
        return try elements.enumerated().map { index, element in
            guard let text = element.stringValue else {
                let elementPath = "\(path(of: key))[\(index)]"
                throw LedgerError(.invalidField, "\(elementPath) of the \(reportName) is \(Self.describe(element)), expected a string",
                                  field: elementPath)
            }
            return text
        }
    }

    private func wrongType(_ key: String, _ member: JSONValue, expected: String) -> LedgerError {
        LedgerError(.invalidField, "\(path(of: key)) of the \(reportName) is \(Self.describe(member)), expected \(expected)",
                    field: path(of: key))
    }

    /// "a string", "null", "the number 1.5", … for messages (``ReportDecoding/describe(_:)``).
    static func describe(_ value: JSONValue) -> String {
        ReportDecoding.describe(value)
    }
}
