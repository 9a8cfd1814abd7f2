import LedgerCore

/// Writes the SQL expression that finds the first problem of a payload, from the same
/// ``FieldSchema`` and ``PayloadRule`` values ``PayloadValidator`` checks in Swift.
///
/// Every expression is a SQL text expression that is `NULL` when the value is fine and
/// `'<path>: <what is wrong>'` otherwise. Checks chain with `coalesce`, which stops at the first
/// problem, in the Swift validator's order: unknown members (sorted), then each field in schema
/// order, then the rules. Nothing in them raises on any JSON input: casts sit behind `CASE`
/// branches that have checked the JSON kind.
struct PayloadCheckSQL {
    /// The jsonb expression of the whole event (for the subject check of personal data).
    let event: String

    /// The first problem of the object `value` (known to be a JSON object) against `fields`, then `rules`.
    func object(_ value: String, fields: [FieldSchema], rules: [PayloadRule] = [], path: SQLPath, depth: Int) -> String {
        var checks = [SQLText.firstUnknownMember(value, allowed: fields.map(\.name), problem: path.memberProblem(sql: "k", "unknown field"))]
        for field in fields {
            let member = SQLText.member(value, field.name)
            let fieldPath = path.child(field.name)
            let missing = field.isRequired ? fieldPath.problem("required field is missing") : "NULL"
            let present = field.isPersonalData
                ? sealed(member, path: fieldPath)
                : self.value(member, kind: field.kind, path: fieldPath, depth: depth)
            checks.append("CASE WHEN \(SQLText.absent(member)) THEN \(missing)\n  ELSE \(present) END")
        }
        checks += rules.map { rule($0, value, path: path) }
        return "coalesce(\n" + SQLText.indent(checks.joined(separator: ",\n")) + ")"
    }

    /// The first problem of a present, non-null `value` of `kind`.
    func value(_ value: String, kind: FieldKind, path: SQLPath, depth: Int) -> String {
        let wrong = path.problem("must be \(kind.expectation)")
        switch kind {
        case .boolean:
            return "CASE WHEN jsonb_typeof(\(value)) <> 'boolean' THEN \(wrong) END"

        case .integer(let range):
            return "CASE WHEN jsonb_typeof(\(value)) <> 'number' THEN \(wrong)"
                + " WHEN (\(value))::numeric <> trunc((\(value))::numeric)"
                + " OR (\(value))::numeric NOT BETWEEN \(range.lowerBound) AND \(range.upperBound) THEN \(wrong) END"

        case .code(let codes):
            return "CASE WHEN jsonb_typeof(\(value)) <> 'number' THEN \(wrong)"
                + " WHEN (\(value))::numeric NOT IN (\(codes.map { String($0.code) }.joined(separator: ", "))) THEN \(wrong) END"

        case .text(let maxLength):
            let text = "(\(value)) #>> '{}'"
            return "CASE WHEN jsonb_typeof(\(value)) <> 'string' THEN \(wrong)"
                + " WHEN char_length(\(text)) NOT BETWEEN 1 AND \(maxLength) THEN \(wrong)"
                + " WHEN ledger.free_text_problem(\(text)) IS NOT NULL"
                + " THEN \(path.problem(sql: "ledger.free_text_problem(\(text)) || ' in free text is never accepted'")) END"

        case .token(let format):
            return "CASE WHEN jsonb_typeof(\(value)) <> 'string' THEN \(wrong)"
                + " WHEN NOT \(Self.matches(format, "(\(value)) #>> '{}'")) THEN \(wrong) END"

        case .oneOf(let values):
            return "CASE WHEN jsonb_typeof(\(value)) <> 'string' THEN \(path.problem("must be a string: \(kind.expectation)"))"
                + " WHEN (\(value)) #>> '{}' NOT IN (\(SQLText.list(values.map(\.name))))"
                + " THEN \(path.problem(sql: "(\(value))::text || ' is not an allowed value'")) END"

        case .array(let element, let count, let unique):
            let a = "a\(depth)", b = "b\(depth)"
            let item = path.element("\(a).i")
            let elementCheck = self.value("\(a).v", kind: element, path: item, depth: depth + 1)
            var perItem = "CASE WHEN jsonb_typeof(\(a).v) = 'null' THEN \(item.problem("must be \(element.expectation), not null"))\n"
                + "  ELSE coalesce(\(elementCheck)"
            if unique {
                perItem += ",\n    (SELECT \(item.problem(sql: "'repeats ' || \(path.sql) || '[' || (min(\(b).i) - 1) || ']; the items must be distinct'"))"
                    + " FROM jsonb_array_elements(\(value)) WITH ORDINALITY AS \(b)(v, i)"
                    + " WHERE \(b).i < \(a).i AND \(b).v = \(a).v HAVING count(*) > 0)"
            }
            perItem += ") END"
            return "CASE WHEN jsonb_typeof(\(value)) <> 'array' THEN \(wrong)\n"
                + "  WHEN jsonb_array_length(\(value)) NOT BETWEEN \(count.lowerBound) AND \(count.upperBound) THEN "
                + path.problem(sql: "'must hold \(count.lowerBound) to \(count.upperBound) items; it holds ' || jsonb_array_length(\(value))") + "\n"
                + "  ELSE (SELECT \(a).p FROM (SELECT \(a).i, \(perItem) AS p\n"
                + "          FROM jsonb_array_elements(\(value)) WITH ORDINALITY AS \(a)(v, i)) AS \(a)\n"
                + "        WHERE \(a).p IS NOT NULL ORDER BY \(a).i LIMIT 1) END"

        case .object(let fields):
            return "CASE WHEN jsonb_typeof(\(value)) <> 'object' THEN \(path.problem("must be a JSON object"))\n"
                + "  ELSE \(object(value, fields: fields, path: path, depth: depth + 1)) END"

        case .variant(let cases):
            let names = cases.map(\.name)
            var text = "CASE WHEN jsonb_typeof(\(value)) <> 'object' THEN \(wrong)\n"
                + "  WHEN (SELECT count(*) FROM jsonb_object_keys(\(value))) <> 1 THEN \(wrong)\n"
                + "  WHEN NOT (\(value)) ?| \(SQLText.array(names)) THEN "
                + "(SELECT \(path.memberProblem(sql: "k", "unknown case")) FROM jsonb_object_keys(\(value)) AS k)\n"
            for variant in cases {
                let inner = SQLText.member(value, variant.name)
                let casePath = path.child(variant.name)
                text += "  WHEN (\(value)) ? \(SQLText.literal(variant.name)) THEN CASE WHEN jsonb_typeof(\(inner)) <> 'object' THEN "
                    + "\(casePath.problem("must be a JSON object"))\n"
                    + "    ELSE \(object(inner, fields: variant.fields, path: casePath, depth: depth + 1)) END\n"
            }
            return text + "  END"
        }
    }

    /// A personal-data field arrives sealed (`{"$sealed":"v1.…"}`, ``PersonalDataCipher``). The
    /// database cannot read inside it, so its kind was checked by the client that sealed it.
    func sealed(_ value: String, path: SQLPath) -> String {
        let marker = PersonalDataCipher.marker
        let sealedValue = SQLText.member(value, marker)
        return "CASE WHEN jsonb_typeof(\(value)) <> 'object' THEN \(notSealed(path))\n"
            + "  WHEN jsonb_typeof(\(sealedValue)) IS DISTINCT FROM 'string' OR (\(value)) - \(SQLText.literal(marker)) <> '{}'::jsonb"
            + " OR (\(sealedValue)) #>> '{}' !~ '^v1\\.[A-Za-z0-9_=-]+$' THEN \(notSealed(path)) END"
    }

    /// An event of a type with personal-data fields names its subject, whose key seals them (as
    /// the Swift store requires before sealing, present or not).
    func subjectForPersonalData(_ type: String, paths: [String]) -> String {
        "CASE WHEN jsonb_typeof(\(SQLText.member(event, "subject"))) IS DISTINCT FROM 'string' THEN "
            + SQLText.literal("subject: required: a \(type) may carry personal data (\(paths.joined(separator: ", "))), "
                              + "sealed under its subject's key") + " END"
    }

    private func notSealed(_ path: SQLPath) -> String {
        path.problem("is personal data and must arrive sealed under the subject's key ({\"\(PersonalDataCipher.marker)\":\"v1.…\"}, "
                     + "as the Swift client and the HTTP API send it); the ledger never stores it in clear")
    }

    /// A SQL boolean: the text expression `text` has `format`.
    static func matches(_ format: TokenFormat, _ text: String) -> String {
        switch format {
        case .uuid: return FieldReader.Pattern.uuid.sql(text)
        case .identifier: return FieldReader.Pattern.identifier.sql(text)
        case .pseudonym: return FieldReader.Pattern.pseudonym.sql(text)
        case .bundleId: return FieldReader.Pattern.bundleId.sql(text)
        case .version: return FieldReader.Pattern.version.sql(text)
        case .timestamp: return "ledger.is_rfc3339_timestamp(\(text))"
        case .date: return "ledger.is_rfc3339_date(\(text))"
        }
    }
}
