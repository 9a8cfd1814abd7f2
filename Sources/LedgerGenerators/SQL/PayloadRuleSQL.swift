import LedgerCore

extension PayloadCheckSQL {
    /// The first problem of `rule` on the payload object `payload`, as ``PayloadRule/check(_:path:)``
    /// finds it in Swift. Runs after every field has the right kind.
    func rule(_ rule: PayloadRule, _ payload: String, path: SQLPath) -> String {
        func member(_ name: String) -> String { SQLText.member(payload, name) }
        func present(_ name: String) -> String { "NOT \(SQLText.absent(member(name)))" }
        func number(_ name: String) -> String { "(\(member(name)))::numeric" }
        func isNumber(_ name: String) -> String { "jsonb_typeof(\(member(name))) = 'number'" }
        func at(_ name: String) -> SQLPath { path.child(name) }

        switch rule {
        case .exactlyOne(let fields):
            let presentList = "(SELECT array_agg(u.n ORDER BY u.o) FROM unnest(\(SQLText.array(fields))) WITH ORDINALITY AS u(n, o)"
                + " WHERE coalesce(jsonb_typeof((\(payload))->u.n), 'null') <> 'null')"
            return "(SELECT CASE WHEN x.p IS NULL THEN \(at(fields[0]).problem("one of \(fields.joined(separator: ", ")) is required"))"
                + " WHEN cardinality(x.p) > 1 THEN \(path.memberProblem(sql: "x.p[2]", "sent together with another of \(fields.joined(separator: ", ")); send exactly one"))"
                + " END FROM (SELECT \(presentList) AS p) AS x)"

        case .atLeastOne(let fields):
            return "CASE WHEN NOT (\(fields.map(present).joined(separator: " OR "))) THEN "
                + "\(at(fields[0]).problem("one of \(fields.joined(separator: ", ")) is required")) END"

        case .requires(let field, let other):
            return "CASE WHEN \(present(field)) AND NOT \(present(other)) THEN \(at(field).problem("only allowed together with \(other)")) END"

        case .requiredWhen(let field, let other, let values):
            return "CASE WHEN \(SQLText.isStringIn(member(other), values)) AND NOT \(present(field)) THEN "
                + "\(at(field).problem(sql: "'required when \(other) is ' || ((\(member(other))) #>> '{}')")) END"

        case .onlyWhen(let field, let other, let values):
            return "CASE WHEN \(present(field)) AND NOT \(SQLText.isStringIn(member(other), values)) THEN "
                + "\(at(field).problem("only allowed when \(other) is \(values.joined(separator: " or "))")) END"

        case .orderedBounds(let lower, let upper):
            return "CASE WHEN \(isNumber(lower)) AND \(isNumber(upper)) THEN CASE WHEN \(number(lower)) > \(number(upper)) THEN "
                + "\(at(lower).problem(sql: "'\(lower) (' || \(number(lower)) || ') is above \(upper) (' || \(number(upper)) || ')'")) END END"

        case .minimumSpan(let lower, let upper, let floor, let years):
            let low = "CASE WHEN \(isNumber(lower)) THEN \(number(lower)) ELSE \(floor) END"
            return "CASE WHEN \(isNumber(upper)) THEN CASE WHEN \(number(upper)) - (\(low)) + 1 < \(years) THEN "
                + "\(at(upper).problem(sql: "'the range ' || (\(low)) || ' to ' || \(number(upper)) || ' spans ' || (\(number(upper)) - (\(low)) + 1) || ' year(s); a range spans at least \(years) years'"))"
                + " END END"

        case .ageGates(let field, let years):
            let gate = path.child(field).element("g.i")
            return "CASE WHEN jsonb_typeof(\(member(field))) = 'array' THEN (SELECT CASE\n"
                + "    WHEN g.i = 1 THEN \(gate.problem(sql: "'the range below the first gate spans ' || g.gate || ' year(s); each range spans at least \(years) years'"))\n"
                + "    WHEN g.gate <= g.prev THEN \(gate.problem(sql: "'must be greater than the gate before it (' || g.prev || '); age gates strictly increase'"))\n"
                + "    ELSE \(gate.problem(sql: "'the range ' || g.prev || ' to ' || (g.gate - 1) || ' spans ' || (g.gate - g.prev) || ' year(s); each range spans at least \(years) years'")) END\n"
                + "  FROM (SELECT e.i, (e.v)::numeric AS gate, lag((e.v)::numeric) OVER (ORDER BY e.i) AS prev\n"
                + "          FROM jsonb_array_elements(\(member(field))) WITH ORDINALITY AS e(v, i)) AS g\n"
                + "  WHERE (g.i = 1 AND g.gate < \(years)) OR (g.i > 1 AND (g.gate <= g.prev OR g.gate - g.prev < \(years)))\n"
                + "  ORDER BY g.i LIMIT 1) END"

        case .uniqueMembers(let array, let key):
            let item = path.child(array).element("m.i")
            return "CASE WHEN jsonb_typeof(\(member(array))) = 'array' THEN (SELECT "
                + "\(item.problem(sql: "'\(key) repeats \(array)[' || (m.first - 1) || '].\(key)'"))\n"
                + "  FROM (SELECT e.i, (e.v)->\(SQLText.literal(key)) AS id, min(e.i) OVER (PARTITION BY (e.v)->\(SQLText.literal(key))) AS first\n"
                + "          FROM jsonb_array_elements(\(member(array))) WITH ORDINALITY AS e(v, i)) AS m\n"
                + "  WHERE m.id IS NOT NULL AND m.first < m.i ORDER BY m.i LIMIT 1) END"

        case .memberReference(let field, let array, let key):
            return "CASE WHEN \(present(field)) AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements("
                + "CASE WHEN jsonb_typeof(\(member(array))) = 'array' THEN \(member(array)) ELSE '[]'::jsonb END) AS r(v)"
                + " WHERE (r.v)->\(SQLText.literal(key)) = \(member(field))) THEN \(at(field).problem("must be the \(key) of one of \(array)")) END"
        }
    }
}
