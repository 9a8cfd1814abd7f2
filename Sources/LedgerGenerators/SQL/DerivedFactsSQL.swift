import LedgerCore

/// Writes the SQL expression that computes an event's derived facts from its payload, from the
/// catalogue's data (``DerivedComputation``, ``LegalCategory``'s bands, ``AgeRatingCode``'s
/// labels), as RFC 8785 canonical text (`{"legalCategory":"adult","verifiedAdult":true}`), or
/// `NULL` when the event derives nothing. Runs only on events the checks accepted; still never
/// raises (casts sit behind kind checks).
enum DerivedFactsSQL {
    /// The facts of one event type that derives some: `'{' … '}'` of its members, NULL when none
    /// applies.
    static func facts(of schema: EventSchema, _ event: String) -> String {
        let members = schema.derived.sorted { $0.name < $1.name }.map { fact in
            member(fact, of: schema, event)
        }
        // ltrim and ||, not concat_ws (which is only stable), so that the expression stays immutable.
        return "nullif('{' || ltrim(\n"
            + SQLText.indent(members.map { "coalesce(',' || \($0), '')" }.joined(separator: " ||\n"), by: 2) + ", ',') || '}', '{}')"
    }

    /// `"name":value` as SQL text, or `NULL` when the fact is absent.
    static func member(_ fact: DerivedFactSchema, of schema: EventSchema, _ event: String) -> String {
        let payload = SQLText.member(event, "payload")
        let key = SQLText.literal("\"\(fact.name)\":")
        switch fact.computation {
        case .legalCategory:
            return "\(key) || '\"' || \(legalCategory(fact.computation, event)) || '\"'"
        case .verifiedAdult(let field, let values):
            guard let category = schema.derived.first(where: {
                if case .legalCategory = $0.computation { return true } else { return false }
            }) else { preconditionFailure("\(schema.type): verifiedAdult needs a legalCategory fact") }
            return "\(key) || CASE WHEN \(legalCategory(category.computation, event)) = \(SQLText.literal(LegalCategory.adult.rawValue))"
                + " AND \(SQLText.isStringIn(SQLText.member(payload, field), values)) THEN 'true' ELSE 'false' END"
        case .ratingLabel(let field):
            let value = SQLText.member(payload, field)
            let labels = AgeRatingCode.allCases.map { "WHEN \($0.rawValue) THEN \(SQLText.literal($0.label))" }.joined(separator: " ")
            return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN \(key) || '\"' || CASE (\(value))::numeric \(labels) END || '\"' END"
        }
    }

    /// The age of majority of the event's `jurisdiction.code`, as ``AgeOfMajority/of(jurisdiction:)``
    /// finds it: the code's own exception, else its country's, else ``AgeOfMajority/standard``.
    static func ageOfMajority(_ event: String) -> String {
        let code = "((\(event)) -> 'jurisdiction' ->> 'code')"
        let exact = AgeOfMajority.exceptions.map { "WHEN \(SQLText.literal($0.code)) THEN \($0.age)" }.joined(separator: " ")
        return "coalesce(CASE \(code) \(exact) END, CASE split_part(\(code), '-', 1) \(exact) END, \(AgeOfMajority.standard))"
    }

    /// ``LegalCategory/of(lowerBound:upperBound:ageOfMajority:)`` over the payload's bounds, band by
    /// band, for each age of majority the catalogue knows (the standard and every exception's).
    static func legalCategory(_ computation: DerivedComputation, _ event: String) -> String {
        guard case .legalCategory(let lower, let upper, let condition) = computation else {
            preconditionFailure("not a legal-category computation")
        }
        let payload = SQLText.member(event, "payload")
        func bound(_ name: String) -> String {
            let value = SQLText.member(payload, name)
            return "(CASE WHEN jsonb_typeof(\(value)) = 'number' THEN (\(value))::numeric END)"
        }
        let low = "coalesce(\(bound(lower)), 0)", high = bound(upper)
        func bands(_ majority: Int) -> String {
            var text = "CASE"
            for category in LegalCategory.allCases {
                guard let band = category.ages(ageOfMajority: majority) else { continue }
                if let bandUpper = band.upper {
                    text += " WHEN \(low) >= \(band.lower) AND \(high) <= \(bandUpper) THEN \(SQLText.literal(category.rawValue))"
                } else {
                    text += " WHEN \(low) >= \(band.lower) THEN \(SQLText.literal(category.rawValue))"
                }
            }
            return text + " ELSE \(SQLText.literal(LegalCategory.unknown.rawValue)) END"
        }
        let majorities = Array(Set(AgeOfMajority.exceptions.map(\.age))).sorted()
        var byMajority = "CASE \(ageOfMajority(event))"
        for majority in majorities { byMajority += "\n        WHEN \(majority) THEN \(bands(majority))" }
        byMajority += "\n        ELSE \(bands(AgeOfMajority.standard)) END"
        guard let condition else { return "(" + byMajority + ")" }
        return "(CASE WHEN NOT \(SQLText.isStringIn(SQLText.member(payload, condition.field), [condition.value]))"
            + " THEN \(SQLText.literal(LegalCategory.unknown.rawValue)) ELSE \(byMajority) END)"
    }
}
