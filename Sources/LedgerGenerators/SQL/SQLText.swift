import LedgerCore

/// Small builders of SQL text for the generated catalogue (``CatalogueSQL``).
enum SQLText {
    /// `text` as a SQL string literal (`'it''s'`). Standard-conforming strings: only `'` is doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A SQL list of string literals, for `IN (…)`.
    static func list(_ values: [String]) -> String {
        values.map(literal).joined(separator: ", ")
    }

    /// A SQL `ARRAY[…]::text[]` of string literals.
    static func array(_ values: [String]) -> String {
        "ARRAY[" + list(values) + "]::text[]"
    }

    /// The jsonb member `name` of the jsonb expression `value`.
    static func member(_ value: String, _ name: String) -> String {
        "(\(value))->\(literal(name))"
    }

    /// True when the jsonb expression is absent or JSON `null` (the catalogue's "not present").
    static func absent(_ value: String) -> String {
        "coalesce(jsonb_typeof(\(value)), 'null') = 'null'"
    }

    /// True when the jsonb expression is a JSON string that is one of `values`.
    static func isStringIn(_ value: String, _ values: [String]) -> String {
        "coalesce(jsonb_typeof(\(value)) = 'string' AND (\(value)) #>> '{}' IN (\(list(values))), false)"
    }

    /// The problem (`problem`, a SQL text expression over the member name `k`) of the first member
    /// of the jsonb object `object` (in sorted order) that is not in `allowed`, or NULL. The subquery
    /// runs only when there is such a member: an object with none costs one jsonb subtraction.
    static func firstUnknownMember(_ object: String, allowed: [String], problem: String) -> String {
        let rest = allowed.isEmpty ? "(\(object))" : "((\(object)) - \(array(allowed)))"
        return "CASE WHEN \(rest) <> '{}'::jsonb THEN (SELECT \(problem) FROM jsonb_object_keys(\(rest)) AS k"
            + " ORDER BY k COLLATE \"C\" LIMIT 1) END"
    }

    /// An event type's name as a SQL identifier part: `AgeRangeShared` becomes `age_range_shared`.
    static func snakeCase(_ name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase, !text.isEmpty { text += "_" }
            text += character.lowercased()
        }
        return text
    }

    /// Indents every line of `text` by `by` spaces.
    static func indent(_ text: String, by: Int = 2) -> String {
        let pad = String(repeating: " ", count: by)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }
}

/// A JSON path as a SQL text expression: a literal (`'payload.ageGates'`), or built at run time
/// when it runs through array elements (`'payload.choices[' || (a1.i - 1) || '].id'`).
struct SQLPath {
    /// The path known when generating, or `nil` when it has a run-time index.
    let literal: String?
    /// The SQL text expression.
    let sql: String

    init(_ path: String) {
        literal = path
        sql = SQLText.literal(path)
    }

    private init(sql: String) {
        literal = nil
        self.sql = sql
    }

    /// The member `name` below this path (a top-level name when this path is empty).
    func child(_ name: String) -> SQLPath {
        if let literal { return SQLPath(literal.isEmpty ? name : literal + "." + name) }
        return SQLPath(sql: "(\(sql) || \(SQLText.literal("." + name)))")
    }

    /// The element at the 1-based ordinality column `ordinality` (a SQL expression).
    func element(_ ordinality: String) -> SQLPath {
        SQLPath(sql: "(\(sql) || '[' || (\(ordinality) - 1) || ']')")
    }

    /// `path: message`, as SQL text; `message` is a SQL text expression.
    func problem(sql message: String) -> String {
        "(\(sql) || ': ' || \(message))"
    }

    /// `path.<member>: message`, as SQL text, for a member named at run time (`name` is a SQL text expression).
    func memberProblem(sql name: String, _ message: String) -> String {
        let dot = literal == "" ? "" : " || '.'"
        return "(\(sql)\(dot) || \(name) || \(SQLText.literal(": " + message)))"
    }

    /// `path: message`, as SQL text; `message` is fixed.
    func problem(_ message: String) -> String {
        if let literal { return SQLText.literal(literal + ": " + message) }
        return "(\(sql) || \(SQLText.literal(": " + message)))"
    }
}
