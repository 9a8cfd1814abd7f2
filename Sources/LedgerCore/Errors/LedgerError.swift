/// An error the ledger reports to a person: what was wrong, where, and what to do about it.
///
/// Errors are values with a stable ``Code`` (in the manner of PostgresNIO's `PSQLError`): adding a
/// code breaks no caller, and callers match on codes, not on message text.
///
/// ```swift
/// throw LedgerError(.missingField, "eventId is required", field: "eventId",
///                   hint: "Give every event a new lowercase UUID.")
/// ```
public struct LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of error, stable across versions.
    public var code: Code
    /// What was wrong, in one sentence.
    public var message: String
    /// What to do about it.
    public var hint: String?
    /// The 1-based input line (NDJSON) the error is about, when there is one.
    public var line: Int?
    /// The JSON path of the field the error is about (`payload.lowerBound`), when there is one.
    public var field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil, line: Int? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.line = line
        self.hint = hint
    }

    /// The same error, located at an input line.
    public func at(line: Int) -> LedgerError {
        var copy = self
        copy.line = line
        return copy
    }

    /// `error` located at an input line when it is a ``LedgerError``; any other error as it is.
    public static func locating(_ error: any Error, line: Int) -> any Error {
        (error as? LedgerError).map { $0.at(line: line) } ?? error
    }

    /// `line 3, field payload.birthDate: <message>` followed by the hint on its own line.
    public var description: String {
        var location: [String] = []
        if let line { location.append("line \(line)") }
        if let field { location.append("field \(field)") }
        var text = location.isEmpty ? message : location.joined(separator: ", ") + ": " + message
        if let hint { text += "\n  hint: " + hint }
        return text
    }
}
