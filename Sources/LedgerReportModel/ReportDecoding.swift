import LedgerCore

/// Reads a report's JSON into its type, refusing what does not fit with a ``LedgerError`` that names
/// the member in full (`rows[0].subject`): a member absent → `missing-field`, of the wrong type →
/// `invalid-field`.
public enum ReportDecoding {
    /// `value` as a `Document`; `reportName` says what it is in messages ("consent register").
    public static func decode<Document: Decodable>(_ type: Document.Type, from value: JSONValue, reportName: String) throws -> Document {
        do {
            return try value.decoded(as: type)
        } catch let error as DecodingError {
            throw refusal(error, in: value, reportName: reportName)
        }
    }

    /// The refusal that names where `error` happened.
    static func refusal(_ error: DecodingError, in root: JSONValue, reportName: String) -> LedgerError {
        switch error {
        case .keyNotFound(let key, let context):
            let path = path(context.codingPath + [key])
            return LedgerError(.missingField, "the \(reportName) has no member \(path)", field: path,
                               hint: "Render the JSON exactly as `consent-ledger report … --format json` wrote it.")
        case .typeMismatch(let type, let context):
            let path = path(context.codingPath)
            let found = value(at: context.codingPath, in: root).map(describe) ?? "absent"
            return LedgerError(.invalidField, "\(path) of the \(reportName) is \(found), expected \(expected(type))", field: path)
        case .valueNotFound(let type, let context):
            let path = path(context.codingPath)
            return LedgerError(.invalidField, "\(path) of the \(reportName) is null, expected \(expected(type))", field: path)
        case .dataCorrupted(let context):
            let path = path(context.codingPath)
            return LedgerError(.invalidField, "\(path) of the \(reportName) is not valid: \(context.debugDescription)", field: path)
        @unknown default:
            return LedgerError(.invalidField, "the \(reportName) is not valid: \(error)")
        }
    }

    /// `rows[0].subject`: members joined by `.`, elements as `[i]`.
    static func path(_ keys: [any CodingKey]) -> String {
        var path = ""
        for key in keys {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return path
    }

    /// The value at `keys` in `root`, nil when there is none.
    static func value(at keys: [any CodingKey], in root: JSONValue) -> JSONValue? {
        var value: JSONValue? = root
        for key in keys {
            if let index = key.intValue {
                value = value?.arrayValue.flatMap { index < $0.count ? $0[index] : nil }
            } else {
                value = value?[key.stringValue]
            }
        }
        return value
    }

    /// What a Swift type reads, in words: "a string", "an integer", …
    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Double.Type, is Float.Type: return "a number"
        case is any FixedWidthInteger.Type: return "an integer"
        case is [JSONValue].Type: return "an array"
        default: return "an object"
        }
    }

    /// "a string", "null", "the number 1.5", … for messages.
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number(let number): return "the number \(CanonicalJSON.numberString(number))"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
