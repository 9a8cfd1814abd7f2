/// Writes the SQL expression that computes an event's derived facts from its payload, from the
/// catalogue's data (``DerivedComputation``, ``LegalCategory``'s bands, ``AgeRatingCode``'s
/// labels), as RFC 8785 canonical text (`{"legalCategory":"adult","verifiedAdult":true}`), or
/// `NULL` when the event derives nothing. Runs only on events the checks accepted; still never
/// raises (casts sit behind kind checks).
enum DerivedFactsSQL {
    /// The `CASE` over the event's type.
    static func facts(_ event: String) -> String {
        let payload = SQLText.member(event, "payload")
        var text = "CASE (\(event)) ->> 'type'\n"
        for schema in EventCatalogue.schemas where !schema.derived.isEmpty {
            let members = schema.derived.sorted { $0.name < $1.name }.map { fact in
                member(fact, of: schema, payload)
            }
            // ltrim and ||, not concat_ws (which is only stable), so that the function stays inlinable.
            text += "  WHEN \(SQLText.literal(schema.type)) THEN nullif('{' || ltrim(\n"
                + SQLText.indent(members.map { "coalesce(',' || \($0), '')" }.joined(separator: " ||\n"), by: 6) + ", ',') || '}', '{}')\n"
        }
        return text + "END"
    }

    /// `"name":value` as SQL text, or `NULL` when the fact is absent.
    static func member(_ fact: DerivedFactSchema, of schema: EventSchema, _ payload: String) -> String {
        let key = SQLText.literal("\"\(fact.name)\":")
        switch fact.computation {
        case .legalCategory:
            return "\(key) || '\"' || \(legalCategory(fact.computation, payload)) || '\"'"
        case .verifiedAdult(let field, let values):
            guard let category = schema.derived.first(where: {
                if case .legalCategory = $0.computation { return true } else { return false }
            }) else { preconditionFailure("\(schema.type): verifiedAdult needs a legalCategory fact") }
            return "\(key) || CASE WHEN \(legalCategory(category.computation, payload)) = \(SQLText.literal(LegalCategory.adult.rawValue))"
                + " AND \(SQLText.isStringIn(SQLText.member(payload, field), values)) THEN 'true' ELSE 'false' END"
        case .ratingLabel(let field):
            let value = SQLText.member(payload, field)
            let labels = AgeRatingCode.allCases.map { "WHEN \($0.rawValue) THEN \(SQLText.literal($0.label))" }.joined(separator: " ")
            return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN \(key) || '\"' || CASE (\(value))::numeric \(labels) END || '\"' END"
        }
    }

    /// ``LegalCategory/of(lowerBound:upperBound:)`` over the payload's bounds, band by band.
    static func legalCategory(_ computation: DerivedComputation, _ payload: String) -> String {
        guard case .legalCategory(let lower, let upper, let condition) = computation else {
            preconditionFailure("not a legal-category computation")
        }
        func bound(_ name: String) -> String {
            let value = SQLText.member(payload, name)
            return "(CASE WHEN jsonb_typeof(\(value)) = 'number' THEN (\(value))::numeric END)"
        }
        let low = "coalesce(\(bound(lower)), 0)", high = bound(upper)
        var text = "(CASE"
        if let condition {
            text += " WHEN NOT \(SQLText.isStringIn(SQLText.member(payload, condition.field), [condition.value]))"
                + " THEN \(SQLText.literal(LegalCategory.unknown.rawValue))"
        }
        for category in LegalCategory.allCases {
            guard let band = category.ages else { continue }
            if let bandUpper = band.upper {
                text += " WHEN \(low) >= \(band.lower) AND \(high) <= \(bandUpper) THEN \(SQLText.literal(category.rawValue))"
            } else {
                text += " WHEN \(low) >= \(band.lower) THEN \(SQLText.literal(category.rawValue))"
            }
        }
        return text + " ELSE \(SQLText.literal(LegalCategory.unknown.rawValue)) END)"
    }
}
